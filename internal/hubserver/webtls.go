package hubserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Files, in the hub's directory, of the certificate the page serves
// HTTPS with when the user supplies none.
const (
	CertFile = "web-cert.pem"
	KeyFile  = "web-key.pem"
)

// certLife is how long the hub's own certificate is valid; it is made
// anew when less than certRenew of it is left.
const (
	certLife  = 825 * 24 * time.Hour
	certRenew = 30 * 24 * time.Hour
)

// LoadCert returns the certificate the page serves HTTPS with: the
// user's, when certFile and keyFile are given, else the hub's own in
// dir, made once (a self-signed ECDSA P-256 certificate for this
// machine's names and addresses, its key readable by its user only).
func LoadCert(dir, certFile, keyFile string) (tls.Certificate, error) {
	if certFile != "" || keyFile != "" {
		if certFile == "" || keyFile == "" {
			return tls.Certificate{}, errors.New("give both the certificate and its key (--cert FILE --key FILE)")
		}
		c, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return tls.Certificate{}, fmt.Errorf("the web page's certificate: %w", err)
		}
		return c, nil
	}
	certPath, keyPath := filepath.Join(dir, CertFile), filepath.Join(dir, KeyFile)
	if c, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil && c.Leaf != nil && time.Until(c.Leaf.NotAfter) > certRenew {
		if err := os.Chmod(keyPath, 0o600); err != nil {
			return tls.Certificate{}, fmt.Errorf("make the web page's key private: %w", err)
		}
		return c, nil
	}
	certPEM, keyPEM, err := selfSigned(time.Now())
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(keyPath, keyPEM, 0o600); err != nil {
		return tls.Certificate{}, fmt.Errorf("write the web page's key: %w", err)
	}
	if err := os.WriteFile(certPath, certPEM, 0o644); err != nil {
		return tls.Certificate{}, fmt.Errorf("write the web page's certificate: %w", err)
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}

// selfSigned makes a certificate for this machine's host name and
// addresses, valid from now.
func selfSigned(now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("make the web page's key: %w", err)
	}
	host, _ := os.Hostname()
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: strings.TrimSpace("askuser hub " + host)},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certLife),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if host != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
				tmpl.IPAddresses = append(tmpl.IPAddresses, n.IP)
			}
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("make the web page's certificate: %w", err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("encode the web page's key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), nil
}

// Fingerprint is the SHA-256 fingerprint of c's leaf certificate as
// browsers show it: hex pairs joined by colons.
func Fingerprint(c tls.Certificate) string {
	if len(c.Certificate) == 0 {
		return ""
	}
	sum := sha256.Sum256(c.Certificate[0])
	var b strings.Builder
	for i, x := range sum {
		if i > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%02X", x)
	}
	return b.String()
}

// SPKIHash is the base64 SHA-256 of c's public key, as Chromium's
// --ignore-certificate-errors-spki-list and HTTP key pinning name a key.
func SPKIHash(c tls.Certificate) (string, error) {
	leaf := c.Leaf
	if leaf == nil {
		if len(c.Certificate) == 0 {
			return "", errors.New("no certificate")
		}
		var err error
		if leaf, err = x509.ParseCertificate(c.Certificate[0]); err != nil {
			return "", err
		}
	}
	sum := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:]), nil
}
