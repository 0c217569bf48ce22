// Package selfsigned makes the arena's self-signed certificates: one P-256 key and a
// certificate that is its own root, so whoever is handed the certificate trusts exactly its
// holder (a bot's host for go-plugin's mutual TLS, an embedded NATS server for its workers).
package selfsigned
