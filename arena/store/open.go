package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Errors, wrapped with the file name and what to do.
var (
	// ErrNotDatabase means the file is not an SQLite database (or its header is damaged).
	ErrNotDatabase = errors.New("not an arena store")
	// ErrForeign means the file is an SQLite database that arena did not create.
	ErrForeign = errors.New("foreign SQLite database")
	// ErrNewer means the store was written by a newer arena.
	ErrNewer = errors.New("store written by a newer arena")
	// ErrDamaged means the store's pages fail SQLite's own consistency check.
	ErrDamaged = errors.New("damaged arena store")
	// ErrReadOnly means the store must be written but the file or its folder cannot be.
	ErrReadOnly = errors.New("store is read-only")
	// ErrNoStore means a store opened for reading does not exist.
	ErrNoStore = errors.New("no such store")
	// ErrNotFound means no tournament or match matched.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyDone means a match was already recorded as finished.
	ErrAlreadyDone = errors.New("match already recorded as finished")
)

// applicationID marks arena stores in the SQLite header ("Arna").
const applicationID = 0x41726e61

// SchemaVersion is the schema this arena writes, stored in PRAGMA user_version. Version 2 added
// bots.content_hash; version 3 the web server's tables (web.go); version 4 the store's own
// random id (meta), which names its ladder on a shared queue; version 5 accounts that hold
// (accounts.go); version 6 each upload's size and collection (quota.go); version 7 each match's
// move clock (clock.go); version 8 a bot's pinned version (versions.go); version 9 disabled
// accounts, the organisers' audit log and authors' webhooks (admin.go).
const SchemaVersion = 9

// baseVersion is the version the schema constant itself describes; a new store gets it and then
// every later migration, so new and migrated stores are the same.
const baseVersion = 2

// migrations[v] takes a store from schema version v to v+1. Each runs in one transaction together
// with the new user_version, so a store is either fully migrated or untouched.
var migrations = map[int][]string{
	1: {"ALTER TABLE bots ADD COLUMN content_hash TEXT NOT NULL DEFAULT ''"},
	3: {"CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
		"INSERT INTO meta(name, value) VALUES('id', lower(hex(randomblob(16))))"},
}

// fixDamaged is what every error about a damaged store tells the user to do.
const fixDamaged = "it was left untouched: keep the file, restore the last backup (arena store backup makes one), " +
	"or give another path with --store; arena store check STORE lists what is wrong"

// Store is an open arena database. It is safe for concurrent use.
type Store struct {
	db       *sql.DB
	Path     string
	version  int
	readOnly bool
}

// Open opens or creates the store at path for a tournament. Before anything is written it checks
// an existing file read-only: an SQLite header, arena's application_id, a schema version this
// arena knows, and PRAGMA quick_check. A file failing any check is refused and never written. A
// store of an older schema version is migrated in one transaction.
func Open(path string) (*Store, error) {
	info, err := inspect(path)
	if err != nil {
		return nil, err
	}
	if info.db != nil {
		info.db.Close()
	}
	if err := writable(path, info.exists); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path, false, false))
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	// One connection: SQLite serialises writers anyway, and this keeps every transaction
	// free of SQLITE_BUSY within one process.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, Path: path, version: info.version}
	switch {
	case info.tables == 0:
		err = s.create()
	case info.version < SchemaVersion:
		err = s.migrate()
	}
	if err == nil {
		err = s.fillNameKeys(context.Background())
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// OpenReadOnly opens an existing store for reading (arena show, arena store backup) after the same
// checks as Open, and never writes to it: it reads a store in a read-only folder or on a read-only
// mount, and a store of an older schema version as it is.
func OpenReadOnly(path string) (*Store, error) {
	info, err := inspect(path)
	if err != nil {
		return nil, err
	}
	if !info.exists {
		return nil, fmt.Errorf("%w: %s does not exist: give the path of a store that arena tournament wrote", ErrNoStore, path)
	}
	if info.db == nil { // an empty file: nothing to read, nothing to hold open
		db, err := sql.Open("sqlite", dsn(path, true, info.immutable))
		if err != nil {
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
		info.db = db
	}
	return &Store{db: info.db, Path: path, version: info.version, readOnly: true}, nil
}

// Version is the store's schema version (0 for an empty file).
func (s *Store) Version() int { return s.version }

func dsn(path string, readOnly, immutable bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	switch {
	case immutable:
		// A read-only folder holding no -wal file: nobody can be writing, and SQLite needs no
		// -shm file (which it could not create there).
		q.Add("mode", "ro")
		q.Add("immutable", "1")
	case readOnly:
		q.Add("mode", "ro")
	default:
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Add("_pragma", "foreign_keys(1)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// inspection is what inspect learned about a file, read-only.
type inspection struct {
	exists    bool
	tables    int
	version   int
	immutable bool
	db        *sql.DB // a read-only handle on a non-empty database, or nil
}

// inspect looks at path read-only, before anything may write to it.
func inspect(path string) (inspection, error) {
	var in inspection
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return in, nil
	}
	if err != nil {
		return in, fmt.Errorf("store %s: %w: check the path and its permissions", path, err)
	}
	in.exists = true
	if st.IsDir() {
		return in, fmt.Errorf("%w: %s is a directory; give a file path with --store", ErrNotDatabase, path)
	}
	if st.Size() == 0 {
		return in, nil // an empty file is a fresh database to SQLite; nothing to lose
	}
	f, err := os.Open(path)
	if err != nil {
		return in, fmt.Errorf("store %s: %w: check its permissions", path, err)
	}
	head := make([]byte, 16)
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || !bytes.Equal(head, []byte("SQLite format 3\x00")) {
		return in, fmt.Errorf("%w: %s is not an SQLite database (damaged, or some other file); it was left untouched: "+
			"move it away or give another path with --store", ErrNotDatabase, path)
	}
	db, err := readHandle(path, &in)
	if err != nil {
		return in, err
	}
	var app int
	err = db.QueryRow("PRAGMA application_id").Scan(&app)
	if err == nil {
		err = db.QueryRow("PRAGMA user_version").Scan(&in.version)
	}
	if err == nil {
		err = db.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&in.tables)
	}
	if err != nil {
		db.Close()
		return in, fmt.Errorf("%w: %s cannot be read as an SQLite database (%v); %s", ErrDamaged, path, err, fixDamaged)
	}
	switch {
	case app != applicationID && in.tables > 0:
		db.Close()
		return in, fmt.Errorf("%w: %s is an SQLite database that arena did not create (application_id %#x); "+
			"it was left untouched: give another path with --store", ErrForeign, path, app)
	case app == applicationID && in.version > SchemaVersion:
		db.Close()
		return in, fmt.Errorf("%w: %s has schema version %d, this arena knows versions up to %d; it was left untouched: "+
			"use a newer arena", ErrNewer, path, in.version, SchemaVersion)
	case in.tables > 0 && in.version < 1:
		db.Close()
		return in, fmt.Errorf("%w: %s carries arena's mark but no schema version; %s", ErrDamaged, path, fixDamaged)
	}
	if problems, err := quickCheck(db); err != nil || len(problems) > 0 {
		db.Close()
		what := fmt.Sprint(err)
		if err == nil {
			what = summarize(problems)
		}
		return in, fmt.Errorf("%w: %s fails SQLite's quick_check (%s); %s", ErrDamaged, path, what, fixDamaged)
	}
	in.db = db
	return in, nil
}

// readHandle opens path read-only. In a folder it may not write to, SQLite cannot create the
// -shm file a WAL database needs; with no -wal file to read there is nothing it would hold, so
// the file is opened as immutable instead.
func readHandle(path string, in *inspection) (*sql.DB, error) {
	in.immutable = !canWrite(filepath.Dir(path)) && !nonEmpty(path+"-wal")
	db, err := sql.Open("sqlite", dsn(path, true, in.immutable))
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if err := db.Ping(); err != nil {
		db.Close()
		if isCorrupt(err) {
			return nil, fmt.Errorf("%w: %s cannot be read as an SQLite database (%v); %s", ErrDamaged, path, err, fixDamaged)
		}
		return nil, fmt.Errorf("store %s: %w%s", path, err, fix(err))
	}
	return db, nil
}

func quickCheck(db *sql.DB) ([]string, error) {
	return pragmaList(context.Background(), db, "PRAGMA quick_check")
}

func pragmaList(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			out = append(out, line)
		}
	}
	return out, rows.Err()
}

func summarize(problems []string) string {
	if len(problems) <= 3 {
		return strings.Join(problems, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(problems[:3], "; "), len(problems)-3)
}

// writable checks, before a writer opens it, that the store (or, for a new store, its folder) and
// the folder for SQLite's -wal and -shm files can be written.
func writable(path string, exists bool) error {
	dir := filepath.Dir(path)
	bad := ""
	switch {
	case exists && !canWrite(path):
		bad = "the file"
	case !canWrite(dir):
		bad = "its folder " + dir
	}
	if bad == "" {
		return nil
	}
	if !exists {
		return fmt.Errorf("%w: cannot create %s: %s is not writable: give a --store in a writable folder", ErrReadOnly, path, dir)
	}
	return fmt.Errorf("%w: %s cannot be written (%s is read-only); it was left untouched: arena show reads it as it is; "+
		"to continue a tournament, copy it to a writable folder (arena store backup %s NEW.db) and give --store NEW.db",
		ErrReadOnly, path, bad, path)
}

// canWrite asks the kernel (access(2), which also knows read-only mounts, even for root).
func canWrite(p string) bool { return syscall.Access(p, 2 /* W_OK */) == nil }

func nonEmpty(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Size() > 0
}

func (s *Store) create() error {
	tx, err := s.db.Begin()
	if err != nil {
		return s.wrap(err, "creating the schema")
	}
	defer tx.Rollback()
	stmts := []string{schema}
	for v := baseVersion; v < SchemaVersion; v++ {
		stmts = append(stmts, migrations[v]...)
	}
	stmts = append(stmts,
		fmt.Sprintf("PRAGMA application_id = %d", applicationID),
		fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return s.wrap(err, "creating the schema")
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(err, "creating the schema")
	}
	s.version = SchemaVersion
	return nil
}

// migrate brings a checked store of an older schema version up to SchemaVersion in one
// transaction: a failure (or a kill) leaves it exactly as it was.
func (s *Store) migrate() error {
	from := s.version
	what := fmt.Sprintf("migrating from schema version %d to %d", from, SchemaVersion)
	tx, err := s.db.Begin()
	if err != nil {
		return s.wrap(err, what)
	}
	defer tx.Rollback()
	for v := from; v < SchemaVersion; v++ {
		stmts, ok := migrations[v]
		if !ok {
			return fmt.Errorf("store %s: no migration from schema version %d; it was left untouched: use the arena that wrote it", s.Path, v)
		}
		for _, q := range stmts {
			if _, err := tx.Exec(q); err != nil {
				return s.wrap(err, what)
			}
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return s.wrap(err, what)
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(err, what)
	}
	s.version = SchemaVersion
	return nil
}

// wrap names the store, what was being done and, from SQLite's error code, the fix.
func (s *Store) wrap(err error, what string) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrAlreadyDone) {
		return err
	}
	if what != "" {
		what += ": "
	}
	return fmt.Errorf("store %s: %s%w%s", s.Path, what, err, fix(err))
}

// code is SQLite's primary result code of err, or -1.
func code(err error) int {
	var coder interface{ Code() int }
	if !errors.As(err, &coder) {
		return -1
	}
	return coder.Code() & 0xff
}

func isCorrupt(err error) bool { c := code(err); return c == 11 || c == 26 }

// fix says what to do about an SQLite error, by its primary result code.
func fix(err error) string {
	switch code(err) {
	case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
		return " (the store is damaged: stop writing to it, keep the file, restore the last backup (arena store backup makes one); " +
			"arena store check STORE lists what is wrong)"
	case 8: // SQLITE_READONLY
		return " (the store or its folder is read-only: arena show reads it as it is; to write, copy it to a writable folder " +
			"with arena store backup and use the copy)"
	case 13: // SQLITE_FULL
		return " (the disk is full: free some space, then continue with --resume; nothing recorded is lost)"
	case 10: // SQLITE_IOERR
		return " (an I/O error: check the disk and its space, then continue with --resume)"
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return " (another process holds the store: wait for it, or use another --store)"
	case 14: // SQLITE_CANTOPEN
		return " (the file, its -wal/-shm files or its folder cannot be opened: check the path and the permissions)"
	}
	return ""
}

// Check runs SQLite's full integrity_check and returns every problem it reports (none: the store
// is sound).
func (s *Store) Check(ctx context.Context) ([]string, error) {
	p, err := pragmaList(ctx, s.db, "PRAGMA integrity_check")
	return p, s.wrap(err, "integrity_check")
}

// Backup writes a consistent copy of the store to dst (SQLite's VACUUM INTO: one read transaction,
// so a tournament may keep writing meanwhile) and checks the copy. It never overwrites: dst must
// not exist. The copy is written next to dst and renamed into place only once it is complete and
// checked.
func (s *Store) Backup(ctx context.Context, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("backup of %s: %s already exists; it was left untouched: give a new file name", s.Path, dst)
	}
	dir := filepath.Dir(dst)
	if !canWrite(dir) {
		return fmt.Errorf("backup of %s: cannot write into %s: give a destination in an existing, writable folder", s.Path, dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dst)+".partial-*")
	if err != nil {
		return fmt.Errorf("backup of %s: %w: give a destination in an existing, writable folder", s.Path, err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	os.Remove(tmpName) // VACUUM INTO wants to create the file itself
	defer os.Remove(tmpName)
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", tmpName); err != nil {
		return s.wrap(err, "backup to "+dst)
	}
	b, err := OpenReadOnly(tmpName)
	if err != nil {
		return fmt.Errorf("backup of %s: the copy fails its check (%w); %s was not written", s.Path, err, dst)
	}
	b.Close()
	// Link, not rename: it fails instead of replacing a dst that appeared meanwhile.
	if err := os.Link(tmpName, dst); err != nil {
		return fmt.Errorf("backup of %s: %w; %s was not written", s.Path, err, dst)
	}
	return nil
}
