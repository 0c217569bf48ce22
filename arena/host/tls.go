package host

import (
	"crypto/tls"
	"crypto/x509"
	"time"

	"github.com/botarena/arena/arena/selfsigned"
)

// clientTLS makes a fresh self-signed client certificate for one bot, the way go-plugin's
// AutoMTLS does, but on P-256: go-plugin's own AutoMTLS key is P-521, which Go's TLS client
// only presents when the server offers P-521 signatures, and grpcio's TLS server does not, so
// a Python bot would have to relay TLS itself (measured: about twice the per-move cost). The
// protocol is AutoMTLS's: the PEM goes to the bot in PLUGIN_CLIENT_CERT, the bot's own
// certificate comes back in the handshake line and go-plugin pins it as the only root.
func clientTLS() (*tls.Config, string, error) {
	certPEM, keyPEM, err := selfsigned.New(selfsigned.Spec{CommonName: "localhost", DNSNames: []string{"localhost"}, Valid: 24 * 365 * time.Hour,
		Usages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth}})
	if err != nil {
		return nil, "", err
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, "", err
	}
	cfg := &tls.Config{
		Certificates: []tls.Certificate{pair},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS12,
		ServerName:   "localhost",
	}
	return cfg, string(certPEM), nil
}
