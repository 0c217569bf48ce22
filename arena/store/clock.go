package store

// Schema version 7 records each match's move clock ("cpu" or "wall"; empty in matches played
// before it was recorded, which a tournament's config or the replay may still tell): the mode
// the match was played with, for its page and arena show.
func init() {
	migrations[6] = []string{
		"ALTER TABLE matches ADD COLUMN clock TEXT NOT NULL DEFAULT ''",
		"ALTER TABLE ladder_matches ADD COLUMN clock TEXT NOT NULL DEFAULT ''",
	}
}

// clockCol selects a match's clock: an empty text in a store of an older schema, opened read-only and
// not migrated.
func (s *Store) clockCol(prefix string) string {
	if s.version > 0 && s.version < 7 {
		return "''"
	}
	return prefix + "clock"
}
