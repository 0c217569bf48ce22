package queue

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/botarena/arena/arena/selfsigned"
)

// Option tunes an embedded server.
type Option func(*embeddedOptions)

type embeddedOptions struct {
	certFile, keyFile string
	names             []string
}

// WithTLS makes a listening server present this certificate and key (PEM files), say from
// the organisation's CA, instead of the self-signed one it makes for itself.
func WithTLS(certFile, keyFile string) Option {
	return func(o *embeddedOptions) { o.certFile, o.keyFile = certFile, keyFile }
}

// WithTLSNames adds names or addresses workers reach this machine by (a public address, a
// full domain name) to the self-signed certificate.
func WithTLSNames(names ...string) Option {
	return func(o *embeddedOptions) { o.names = append(o.names, names...) }
}

// Names of the self-signed certificate's files in the server's folder.
const (
	selfCert = "tls-cert.pem"
	selfKey  = "tls-key.pem"
)

// serverTLS is a listening server's TLS configuration, and the certificate workers must trust
// when it is self-signed ("" when it came from WithTLS: trusting it is the organiser's
// business).
func serverTLS(dir, host string, o embeddedOptions) (*tls.Config, string, error) {
	if (o.certFile == "") != (o.keyFile == "") {
		return nil, "", errors.New("--nats-tls-cert and --nats-tls-key go together: give both, or neither for a self-signed certificate")
	}
	certFile, keyFile, ca := o.certFile, o.keyFile, ""
	if certFile == "" {
		certFile, keyFile = filepath.Join(dir, selfCert), filepath.Join(dir, selfKey)
		want := append([]string{host}, o.names...)
		if _, err := tls.LoadX509KeyPair(certFile, keyFile); err != nil || !covers(certFile, want) {
			if err := selfSign(certFile, keyFile, want); err != nil {
				return nil, "", fmt.Errorf("making the NATS server's certificate in %s: %w", dir, err)
			}
		}
		ca = certFile
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, "", fmt.Errorf("NATS server certificate %s with key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, ca, nil
}

// names are what a worker may dial this machine by: its host name, localhost, its addresses,
// and every name or address in want (the listen address, --nats-tls-name).
func names(want []string) (dns []string, ips []net.IP) {
	dns = []string{"localhost"}
	if h, err := os.Hostname(); err == nil {
		dns = append(dns, h)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				ips = append(ips, n.IP)
			}
		}
	}
	ips = append(ips, net.IPv4(127, 0, 0, 1), net.IPv6loopback)
	for _, w := range want {
		if ip := net.ParseIP(w); ip != nil {
			if !ip.IsUnspecified() {
				ips = append(ips, ip)
			}
		} else if w != "" {
			dns = append(dns, w)
		}
	}
	return dns, ips
}

// covers reports whether the certificate at file names every name or address in want and
// this machine's host name, and is not about to expire.
func covers(file string, want []string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		return false
	}
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil || time.Until(c.NotAfter) < 30*24*time.Hour {
		return false
	}
	if h, err := os.Hostname(); err == nil {
		want = append(want, h)
	}
	for _, w := range want {
		if ip := net.ParseIP(w); ip != nil {
			if !ip.IsUnspecified() && !slices.ContainsFunc(c.IPAddresses, ip.Equal) {
				return false
			}
		} else if w != "" && c.VerifyHostname(w) != nil {
			return false
		}
	}
	return true
}

// selfSign writes a new self-signed certificate (ten years) for this machine's names and
// want, and its key readable by its owner only. Each file is written beside and renamed into
// place, the key first: a crash leaves the old pair or a pair that does not load, which the
// next start makes again.
func selfSign(certFile, keyFile string, want []string) error {
	dns, ips := names(want)
	certPEM, keyPEM, err := selfsigned.New(selfsigned.Spec{CommonName: "arena NATS server", DNSNames: dns, IPs: ips,
		Valid: 10 * 365 * 24 * time.Hour, Usages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(certFile), 0o700); err != nil {
		return err
	}
	if err := writeAtomic(keyFile, keyPEM, 0o600); err != nil {
		return err
	}
	return writeAtomic(certFile, certPEM, 0o644)
}

func writeAtomic(path string, data []byte, mode os.FileMode) error {
	tmp := fmt.Sprintf("%s.tmp-%d", path, os.Getpid())
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	// WriteFile keeps the mode of a file that was there: set it.
	if err := os.Chmod(tmp, mode); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
