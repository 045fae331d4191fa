package server

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/charmbracelet/keygen"
	gossh "golang.org/x/crypto/ssh"
)

// HostKeyFingerprint is the SHA256 fingerprint of the host key at path, as ssh-keygen -lf and a
// client's first-connection prompt print it ("SHA256:..."), creating the key (ed25519, mode 0600,
// its folder 0700) when there is none, as serving does: students check it against the handout.
func HostKeyFingerprint(path string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		if _, err := keygen.New(path, keygen.WithKeyType(keygen.Ed25519), keygen.WithWrite()); err != nil {
			return "", fmt.Errorf("--host-key %s: %w", path, err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--host-key: %w", err)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		return "", fmt.Errorf("--host-key %s: not a private key cara can read (%v)", path, err)
	}
	return gossh.FingerprintSHA256(signer.PublicKey()), nil
}
