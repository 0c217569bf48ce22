package names

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/mtibben/confusables"
)

// MaxLen is the longest name.
const MaxLen = 40

var pattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$`)

// ErrReserved means a name is the arena's own or looks like it.
var ErrReserved = errors.New("reserved name")

// House is the user that owns the house bots; every house bot's name starts with it.
const House = "house"

// reserved are names nobody registers: they would read as the arena speaking.
var reserved = []string{House, "arena", "organiser", "organizer", "organisers", "organizers", "admin", "administrator",
	"admins", "root", "system", "sysadmin", "staff", "moderator", "operator", "support", "security", "official",
	"api", "me", "login", "logout", "register", "anonymous", "nobody", "null", "undefined"}

// Key is the form under which look-alike names collide: each character replaced by its Unicode
// confusables skeleton (UTS #39: 0 reads as O, 1 and I as l, m as rn) and letter case folded,
// until nothing changes; then i read as l (adm1n, admIn and admin are one name) and '.', '_'
// and '-' made one separator. Stricter than UTS #39 on purpose: a refused look-alike costs a
// newcomer another pick, an accepted one lets them pass for someone else.
func Key(name string) string {
	k := name
	for range 8 { // a skeleton of a skeleton is the same; lower-casing may expose one more step
		next := strings.ToLower(confusables.Skeleton(k))
		if next == k {
			break
		}
		k = next
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '.':
			return '-'
		case 'i':
			return 'l'
		}
		return r
	}, k)
}

func check(what, name string) error {
	if !pattern.MatchString(name) {
		return fmt.Errorf("a %s name is 1 to %d letters, digits, '.', '_' or '-', starting with a letter or digit", what, MaxLen)
	}
	k := Key(name)
	if strings.HasPrefix(k, Key(House)) {
		return fmt.Errorf("%w: %q reads as the arena's house (its bots are house-*): pick another %s name", ErrReserved, name, what)
	}
	for _, r := range reserved {
		if k == Key(r) {
			return fmt.Errorf("%w: %q reads as %q, which is the arena's own: pick another %s name", ErrReserved, name, r, what)
		}
	}
	return nil
}

// Valid reports whether a name has the shape of a name (tournaments' names too); User and
// Bot check more.
func Valid(name string) bool { return pattern.MatchString(name) }

// User checks a new user name.
func User(name string) error { return check("user", name) }

// Bot checks a new bot name.
func Bot(name string) error { return check("bot", name) }
