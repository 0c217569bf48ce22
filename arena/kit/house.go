package kit

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// HousePrefix starts a house bot's spec: house:<game>/<name> is the Go kit's
// bots/<game>/cmd/<name>, the binary's own copy of a house bot, built like any Go submission.
// It works from any folder; in a checkout, bots/<game>/cmd/<name> is the same bot as a folder.
const HousePrefix = "house:"

// ErrNoHouse is an unknown house bot.
var ErrNoHouse = errors.New("no such house bot")

// HouseBots lists every house:<game>/<name> the binary carries, sorted.
func HouseBots() ([]string, error) {
	k, err := Get(Go)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range k.Files {
		parts := strings.Split(f, "/")
		if len(parts) == 5 && parts[0] == "bots" && parts[2] == "cmd" && strings.HasSuffix(parts[4], ".go") && parts[1] != "hostile" && parts[1] != "bench" {
			seen[HousePrefix+parts[1]+"/"+parts[3]] = true
		}
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// House unpacks the Go kit and returns the folder of the house bot spec names
// (house:<game>/<name>).
func House(spec string) (string, error) {
	all, err := HouseBots()
	if err != nil {
		return "", err
	}
	found := false
	for _, b := range all {
		found = found || b == spec
	}
	if !found {
		game, _, _ := strings.Cut(strings.TrimPrefix(spec, HousePrefix), "/")
		var same []string
		for _, b := range all {
			if strings.HasPrefix(b, HousePrefix+game+"/") {
				same = append(same, b)
			}
		}
		if len(same) == 0 {
			same = all
		}
		return "", fmt.Errorf("%w %q: the house bots are %s", ErrNoHouse, spec, strings.Join(same, ", "))
	}
	dir, _, err := Dir(Go)
	if err != nil {
		return "", err
	}
	game, name, _ := strings.Cut(strings.TrimPrefix(spec, HousePrefix), "/")
	return filepath.Join(dir, filepath.FromSlash(path.Join("bots", game, "cmd", name))), nil
}
