# Sourced by scripts/test.sh and scripts/vm/leg.sh.
# children_cpu VAR: sets VAR to the CPU-seconds (user and system) of every finished child of
# the calling shell so far, by bash's times run in that shell (in a $(...) subshell it would
# count only the subshell's own children). Sandboxed processes count once their parent, which
# the caller waited for, has reaped them.
children_cpu() {
  local t
  t=$(mktemp) && times >"$t" && printf -v "$1" '%s' "$(tail -n 1 "$t" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } printf "%d", n }')"
  rm -f "$t"
}
