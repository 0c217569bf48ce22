package game

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// configJSON is Config without its methods, for its JSON encoding.
type configJSON Config

// MarshalJSON writes the seed as a decimal string: seeds use all 64 bits, and a JSON number
// above 2^53 is rounded by JavaScript (the viewer, any API client), which would name another
// match.
func (c Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		configJSON
		Seed string `json:"seed"`
	}{configJSON(c), strconv.FormatUint(c.Seed, 10)})
}

// UnmarshalJSON reads the seed as a string or, as records written before seeds were strings
// hold it, as a number.
func (c *Config) UnmarshalJSON(b []byte) error {
	var v struct {
		*configJSON
		Seed json.RawMessage `json:"seed"`
	}
	v.configJSON = (*configJSON)(c)
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s, err := ParseSeedJSON(v.Seed)
	if err != nil {
		return err
	}
	c.Seed = s
	return nil
}

// ParseSeedJSON reads a seed written as a JSON string ("123") or number (123); empty or null
// is 0.
func ParseSeedJSON(raw json.RawMessage) (uint64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, err
		}
	}
	s, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed %s is not a whole number from 0 to 2^64-1", raw)
	}
	return s, nil
}
