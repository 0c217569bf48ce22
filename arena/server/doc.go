// Package server is arena serve: server-rendered pages (html/template, assets embedded) that
// work without JavaScript, a JSON API under /api/v1/ (docs/api.md), accounts with argon2id
// passwords, session cookies, CSRF tokens and a rate-limited login, uploads that become bot
// versions validated by arena/ladder, and live updates as server-sent events.
//
// Who sees what: everyone sees games, leaderboards, matches, results and replays; a bot's
// code, its logs in each match, its validation log and its faults' details (which quote its
// stderr) are shown to its author only. Organisers disable bots, replay ladder matches, pause
// the ladder and create tournaments from the current versions; they manage accounts, read a
// bot's code for plagiarism checks, export the standings and set the announcement (admin.go),
// every action written to the audit log. Lists are filtered and paged by a cursor on the id
// (lists.go). Authors may have a signed webhook told of their validations and ratings
// (webhooks.go).
package server
