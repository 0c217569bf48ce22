# Sourced by scripts/vm/leg.sh (the host builds what these cases play) and scripts/vm/guest.sh
# (runs them): the VM leg's core hostile cases, by the tests that already exist for them, as
# -test.run patterns. One place to edit when a test is renamed.
#
# The sandbox's own tests, on its helper acts: a fork bomb and thread limits, a memory bomb, a
# hang stopped by the wall time, an escape (the host's files and processes), the network, the
# CPU limit, and a kill that takes the whole tree.
SANDBOX_TESTS='^(TestProcessAndThreadLimits|TestMemoryLimit|TestWallTimeLimit|TestCannotTouchTheHost|TestFilesystemView|TestNoNetwork|TestCPULimits|TestKillIsTotal)$'
# The same attacks as whole matches, from Go bots (bots/hostile): each must lose by the right
# fault and leave nothing. Go rather than Python: under emulation a Python bot takes over a
# minute to start (the Go lane runs the Python cases on the host).
HOSTILE_TESTS='^TestHostileBots$/^(forkbomb|memory|sleeper|setsid|secrets|network)$'
