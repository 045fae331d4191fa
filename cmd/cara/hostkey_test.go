package main

import (
	"path/filepath"
	"testing"
)

// Under systemd (StateDirectory= sets $STATE_DIRECTORY) the default host key is the service's
// state, the same file the unit names, so a drop-in that leaves --host-key out keeps the key
// students have seen; elsewhere it is the user's configuration folder.
func TestDefaultHostKey(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "/var/lib/cara:/var/lib/other")
	if got := defaultHostKey(); got != "/var/lib/cara/ssh_host_ed25519" {
		t.Errorf("under systemd: %s, want /var/lib/cara/ssh_host_ed25519", got)
	}
	t.Setenv("STATE_DIRECTORY", "")
	t.Setenv("XDG_CONFIG_HOME", "/work")
	if got, want := defaultHostKey(), filepath.Join("/work", "cara", "ssh_host_ed25519"); got != want {
		t.Errorf("in the image: %s, want %s", got, want)
	}
}
