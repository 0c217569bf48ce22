package selfsigned

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net"
	"testing"
	"time"
)

// TestOwnRoot: the certificate verifies for its names with itself as the only root, not for
// another name, and its key matches.
func TestOwnRoot(t *testing.T) {
	certPEM, keyPEM, err := New(Spec{CommonName: "x", DNSNames: []string{"worker.example"}, IPs: []net.IP{net.IPv4(10, 0, 0, 7)},
		Valid: time.Hour, Usages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tls.X509KeyPair(certPEM, keyPEM); err != nil {
		t.Fatalf("key and certificate: %v", err)
	}
	blk, _ := pem.Decode(certPEM)
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(c)
	for name, ok := range map[string]bool{"worker.example": true, "10.0.0.7": true, "other.example": false, "10.0.0.8": false} {
		_, err := c.Verify(x509.VerifyOptions{DNSName: name, Roots: roots})
		if (err == nil) != ok {
			t.Errorf("verify for %s: %v, want ok=%v", name, err, ok)
		}
	}
}
