package host

import (
	"regexp"
	"strconv"
	"strings"
)

// CauseLines is how many stderr lines a report shows for a bot that died: enough for a
// compiler-style error with its source line and caret, a Python traceback's last frames, or
// the head of a Go panic.
const CauseLines = 16

// runtimeNoise is a stderr line of the language runtime's own making that never says why a
// bot died: Node's frames inside its own module loader and its version banner. Without them
// a JavaScript syntax error fits its report (the frames pushed the SyntaxError line out).
var runtimeNoise = regexp.MustCompile(`^\s+at (.*\()?node:internal/|^Node\.js v\d`)

// headline is a line that names an error: a JavaScript or Python exception (SyntaxError:,
// ModuleNotFoundError:), a Go panic or fatal error, a compiler's "error:", Java's uncaught
// exception. The report always shows the last one, however long the stack after it.
var headline = regexp.MustCompile(`^(panic: |fatal error: |Exception in thread |error(\[\w+\])?: |Traceback \(most recent call last\)|([\w$]+\.)*[\w$]*(Error|Exception)\b)`)

// DeathLines picks the lines of a dead bot's stderr that say why it died: its last n lines
// without the runtime's own noise, and, when a long stack pushed it out of them, the last
// line naming an error with the few lines before it (a source line and its caret).
func DeathLines(lines []string, n int) []string {
	kept := make([]string, 0, len(lines))
	for _, l := range lines {
		if !runtimeNoise.MatchString(l) {
			kept = append(kept, l)
		}
	}
	if len(kept) <= n {
		return kept
	}
	head := -1
	for i := len(kept) - 1; i >= 0; i-- {
		if headline.MatchString(kept[i]) {
			head = i
			break
		}
	}
	if head < 0 || head >= len(kept)-n {
		return kept[len(kept)-n:]
	}
	// The error line with up to 3 lines of context before it, then the very end (how the
	// process ended), with a marker for what was left out.
	from := max(0, head-3)
	tail := 2
	to := from + n - tail - 1
	out := append([]string(nil), kept[from:to]...)
	out = append(out, "[... "+strconv.Itoa(len(kept)-tail-to)+" lines ...]")
	return append(out, kept[len(kept)-tail:]...)
}

// causeText is Cause of a bot's log since its start, as a report's indented block, with the
// bot's own files named as their author knows them (see Command.Files).
func causeText(l *Log, files string) string {
	lines := DeathLines(l.Tail(4*CauseLines), CauseLines)
	if len(lines) == 0 {
		return "\n  it wrote nothing to stderr"
	}
	for i, line := range lines {
		lines[i] = ownFiles(line, files)
	}
	return "\n  its last stderr lines:\n    " + strings.Join(lines, "\n    ")
}

// inBotDir is a path in the folder where a bot sees its own files (/bot/bot.js:3), at the
// start of a line or after a space, a quote or a bracket.
var inBotDir = regexp.MustCompile(`(?m)(^|[\s("'])` + regexp.QuoteMeta(BotFilesAt) + `/`)

// BotFilesAt is where a bot sees its own files in its sandbox (botspec.BotDir).
const BotFilesAt = "/bot"

// ownFiles names the files under BotFilesAt in a line by files (the submission's folder as
// its author gave it; "." for paths relative to it; "" leaves the line as it is).
func ownFiles(line, files string) string {
	if files == "" || !strings.Contains(line, BotFilesAt+"/") {
		return line
	}
	repl := "${1}"
	if files != "." {
		repl += strings.ReplaceAll(files, "$", "$$") + "/"
	}
	return inBotDir.ReplaceAllString(line, repl)
}

// OwnFiles names the bot's own files in a line of its stderr as its author knows them (see
// Command.Files): what a report quotes of a bot that faulted mid-match.
func (b *Bot) OwnFiles(line string) string { return ownFiles(line, b.files) }
