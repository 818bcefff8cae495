package langhost

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestOwnedFolderIsCreatedPrivateInTheUserCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir, err := OwnedFolder("pulumi-language-test", "builds")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "pulumi-language-test", "builds"); dir != want {
		t.Fatalf("got %s, want %s", dir, want)
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		info, err := os.Lstat(d)
		if err != nil {
			t.Fatal(err)
		}
		if !info.IsDir() || info.Mode().Perm() != 0o700 {
			t.Fatalf("%s: mode %v, want a folder with 0700", d, info.Mode())
		}
	}
	if again, err := OwnedFolder("pulumi-language-test", "builds"); err != nil || again != dir {
		t.Fatalf("the second time: %s, %v", again, err)
	}
}

// Without HOME (some CI runners, service accounts), the folder is this user's in TMPDIR, checked
// as any other.
func TestWithoutAUserCacheTheFolderIsThisUsersInTMPDIR(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "relative/cache") // not absolute: no cache either
	t.Setenv("TMPDIR", tmp)
	dir, err := OwnedFolder("pulumi-language-test")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(tmp, "pulumi-language-test-"+strconv.Itoa(os.Geteuid())); dir != want {
		t.Fatalf("got %s, want %s", dir, want)
	}
}

func TestOwnedFolderRefusesAFolderOthersCouldHavePlanted(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, dir string)
		says  string
	}{
		{"world-writable", func(t *testing.T, dir string) { mkdir(t, dir, 0o777) }, "others may write into it (mode 0777)"},
		{"group-writable", func(t *testing.T, dir string) { mkdir(t, dir, 0o770) }, "others may write into it (mode 0770)"},
		{"a symbolic link to a private folder", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			mkdir(t, target, 0o700)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "it is a symbolic link"},
		{"a file", func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "it is not a folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			planted := filepath.Join(cache, "pulumi-language-test")
			c.plant(t, planted)
			_, err := OwnedFolder("pulumi-language-test")
			if err == nil || !strings.Contains(err.Error(), "refusing to use "+planted+": "+c.says) {
				t.Fatalf("got %v, want a refusal saying %q", err, c.says)
			}
		})
	}
}

func TestOwnedFolderRefusesAnotherUsersFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can make a folder that belongs to another user")
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	planted := filepath.Join(cache, "pulumi-language-test")
	mkdir(t, planted, 0o700)
	if err := os.Chown(planted, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err := OwnedFolder("pulumi-language-test")
	if err == nil || !strings.Contains(err.Error(), "it belongs to user 65534, not to this user (0)") {
		t.Fatalf("got %v", err)
	}
}

func TestOwnedFolderRefusesACacheOthersCanRenameItOutOf(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "shared")
	mkdir(t, cache, 0o777)
	t.Setenv("XDG_CACHE_HOME", cache)
	if _, err := OwnedFolder("pulumi-language-test"); err == nil || !strings.Contains(err.Error(), "it is not sticky") {
		t.Fatalf("got %v", err)
	}
	if err := os.Chmod(cache, 0o775); err != nil {
		t.Fatal(err)
	}
	if _, err := OwnedFolder("pulumi-language-test"); err != nil {
		t.Fatalf("a group-writable ~/.cache (umask 002, a private group per user): %v", err)
	}
	if err := os.Chmod(cache, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if _, err := OwnedFolder("pulumi-language-test"); err != nil {
		t.Fatalf("a sticky folder as /tmp is: %v", err)
	}
}

// mkdir makes dir with exactly mode (umask aside).
func mkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
}
