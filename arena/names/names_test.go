package names

import (
	"errors"
	"testing"
)

func TestKeyFoldsLookAlikes(t *testing.T) {
	same := [][2]string{
		{"ada", "ADA"}, {"bob1", "bobl"}, {"bobI", "bobl"}, {"r0ck", "rOck"}, {"emma", "ernrna"},
		{"ada_b", "ada-b"}, {"ada.b", "ada-b"}, {"Organiser", "0rganiser"},
	}
	for _, p := range same {
		if Key(p[0]) != Key(p[1]) {
			t.Errorf("Key(%q) = %q, Key(%q) = %q: look-alikes must collide", p[0], Key(p[0]), p[1], Key(p[1]))
		}
	}
	differ := [][2]string{{"ada", "adb"}, {"rock", "paper"}, {"bob2", "bob3"}, {"ada", "adam"}}
	for _, p := range differ {
		if Key(p[0]) == Key(p[1]) {
			t.Errorf("Key(%q) = Key(%q) = %q: different names must not collide", p[0], p[1], Key(p[0]))
		}
	}
}

func TestReservedAndLookAlikesRefused(t *testing.T) {
	for _, n := range []string{"house", "HOUSE", "h0use", "house-rock", "House_bot", "hous3"[:4] + "e2", "admin", "Adm1n", "organiser", "0rganizer", "root"} {
		if err := User(n); !errors.Is(err, ErrReserved) {
			t.Errorf("User(%q) = %v, want a reserved-name refusal", n, err)
		}
		if err := Bot(n); !errors.Is(err, ErrReserved) {
			t.Errorf("Bot(%q) = %v, want a reserved-name refusal", n, err)
		}
	}
	for _, n := range []string{"ada", "rockbot", "my-house-bot", "adminton"} {
		if err := User(n); err != nil {
			t.Errorf("User(%q) = %v, want ok", n, err)
		}
	}
	for _, n := range []string{"", "-ada", "ada bob", "адa", "a/b", "x1234567890123456789012345678901234567890"} {
		if err := User(n); err == nil || errors.Is(err, ErrReserved) {
			t.Errorf("User(%q) = %v, want a pattern refusal", n, err)
		}
	}
}
