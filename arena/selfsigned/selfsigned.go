package selfsigned

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"time"
)

// Spec says what a certificate is for.
type Spec struct {
	CommonName string
	DNSNames   []string
	IPs        []net.IP
	Valid      time.Duration
	// Usages are the extended key usages (server, client or both).
	Usages []x509.ExtKeyUsage
}

// New makes a key and a certificate for it (ECDSA P-256: the curve every TLS stack the
// arena meets offers), both PEM-encoded.
func New(s Spec) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: s.CommonName, Organization: []string{"arena"}},
		DNSNames:     s.DNSNames,
		IPAddresses:  s.IPs,
		// A little in the past: clocks of two machines differ.
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(s.Valid),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageCertSign,
		ExtKeyUsage:           s.Usages,
		BasicConstraintsValid: true,
		IsCA:                  true, // its own root
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}
