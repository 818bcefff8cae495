package langhost

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// Without HOME (some CI runners, service accounts), the folder is a private one of this process in
// TMPDIR with a name no one can guess and take first: a folder another user made at the name an
// earlier version used (<host>-<uid>) changes nothing.
func TestWithoutAUserCacheTheFolderIsThisRunsOwnInTMPDIR(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "relative/cache") // not absolute: no cache either
	t.Setenv("TMPDIR", tmp)
	taken := filepath.Join(tmp, "pulumi-language-test-"+strconv.Itoa(os.Geteuid()))
	if err := os.WriteFile(taken, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := OwnedFolder("pulumi-language-test", "builds")
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Dir(dir)
	if filepath.Dir(run) != tmp || !strings.HasPrefix(filepath.Base(run), "pulumi-language-test-") || run == taken || filepath.Base(dir) != "builds" {
		t.Fatalf("got %s, want <TMPDIR>/pulumi-language-test-<random>/builds", dir)
	}
	for _, d := range []string{run, dir} {
		if info, err := os.Lstat(d); err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v, %v; want a folder with 0700", d, info.Mode(), err)
		}
	}
	if again, err := OwnedFolder("pulumi-language-test", "builds"); err != nil || again != dir {
		t.Fatalf("the second time in this process: %s, %v; want %s", again, err, dir)
	}
	if other, err := OwnedFolder("pulumi-language-other"); err != nil || filepath.Dir(other) != tmp || other == run {
		t.Fatalf("another host: %s, %v; want a folder of its own", other, err)
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

// Another user's folder, planted where ours goes. Root gives the folder away (to nobody, 65534) and
// asks OwnedFolder; without root no folder can be given away, so the folder stays this user's and
// the folder's check is asked on behalf of another user (thisUser). Either way the test runs: no
// skip that a run without -v would not show.
func TestOwnedFolderRefusesAnotherUsersFolder(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	planted := filepath.Join(cache, "pulumi-language-test")
	mkdir(t, planted, 0o700)
	var err error
	owner, user := 65534, os.Geteuid()
	if os.Geteuid() == 0 {
		if err := os.Chown(planted, owner, owner); err != nil {
			t.Fatal(err)
		}
		_, err = OwnedFolder("pulumi-language-test")
	} else {
		// The cache is this user's too, so the whole of OwnedFolder would stop at it.
		owner, user = os.Geteuid(), os.Geteuid()+1
		asUser(t, user)
		err = ownFolder(planted)
	}
	want := fmt.Sprintf("refusing to use %s: it belongs to user %d, not to this user (%d)", planted, owner, user)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestOwnedFolderRefusesACacheOthersCanRenameItOutOf(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "shared")
	mkdir(t, cache, 0o777)
	t.Setenv("XDG_CACHE_HOME", cache)
	if _, err := OwnedFolder("pulumi-language-test"); err == nil || !strings.Contains(err.Error(), "it is not sticky") {
		t.Fatalf("got %v", err)
	}
	if err := os.Chmod(cache, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if _, err := OwnedFolder("pulumi-language-test"); err != nil {
		t.Fatalf("a sticky folder as /tmp is: %v", err)
	}
}

// A group-writable cache (~/.cache made with umask 002) is let pass only when the group is the
// user's private group: a member of a shared group could rename our folder away and plant a shim
// that runs as the user.
func TestOwnedFolderTakesAGroupWritableCacheOnlyForTheUsersPrivateGroup(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	mkdir(t, cache, 0o775)
	t.Setenv("XDG_CACHE_HOME", cache)
	info, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}
	gid, uid := info.Sys().(*syscall.Stat_t).Gid, os.Geteuid()
	for _, c := range []struct {
		name, passwd, group string
		private             bool
	}{
		{"the user's private group", fmt.Sprintf("ada:x:%d:%d::/home/ada:/bin/sh\n", uid, gid), fmt.Sprintf("ada:x:%d:\n", gid), true},
		{"a group with another member", fmt.Sprintf("ada:x:%d:%d::/:/bin/sh\n", uid, gid), fmt.Sprintf("ada:x:%d:ada,mallory\n", gid), false},
		{"another account's primary group too", fmt.Sprintf("ada:x:%d:%d::/:/bin/sh\nmallory:x:%d:%d::/:/bin/sh\n", uid, gid, uid+1, gid), fmt.Sprintf("ada:x:%d:\n", gid), false},
		{"a group named otherwise", fmt.Sprintf("ada:x:%d:%d::/:/bin/sh\n", uid, gid), fmt.Sprintf("staff:x:%d:\n", gid), false},
		{"not the user's primary group", fmt.Sprintf("ada:x:%d:%d::/:/bin/sh\n", uid, gid+1), fmt.Sprintf("ada:x:%d:\n", gid), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			accountFiles(t, c.passwd, c.group)
			_, err := OwnedFolder("pulumi-language-test")
			want := fmt.Sprintf("refusing to keep files in %s: its group (%d) may write into it (mode 0775) and is not this user's private group", cache, gid)
			if c.private && err != nil {
				t.Fatalf("got %v, want it accepted", err)
			}
			if !c.private && (err == nil || !strings.Contains(err.Error(), want)) {
				t.Fatalf("got %v, want %q", err, want)
			}
		})
	}
}

func TestOwnedFolderRefusesACacheOfAnotherUser(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	other := os.Geteuid() + 1
	asUser(t, other)
	want := fmt.Sprintf("refusing to keep files in %s: it belongs to user %d, not to this user (%d)", cache, os.Geteuid(), other)
	if _, err := OwnedFolder("pulumi-language-test"); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// A file is run from the folder only if, right then, the folder still checks out and the file is
// a regular file of this user's that no one else may write.
func TestOwnedFileIsCheckedRightBeforeItRuns(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir, err := OwnedFolder("pulumi-language-test", "builds")
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(dir, "program")
	if err := os.WriteFile(program, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := OwnedFile(program, "pulumi-language-test", "builds"); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(program, 0o722); err != nil {
		t.Fatal(err)
	}
	if err := OwnedFile(program, "pulumi-language-test", "builds"); err == nil || !strings.Contains(err.Error(), "others may write into it (mode 0722)") {
		t.Fatalf("got %v", err)
	}
	// The folder swapped for a link after the first check: refused when the file is to run.
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+".moved", dir); err != nil {
		t.Fatal(err)
	}
	if err := OwnedFile(program, "pulumi-language-test", "builds"); err == nil || !strings.Contains(err.Error(), "it is a symbolic link") {
		t.Fatalf("got %v", err)
	}
}

// asUser makes the checks judge ownership for uid for the rest of the test.
func asUser(t *testing.T, uid int) {
	t.Helper()
	saved := thisUser
	thisUser = func() int { return uid }
	t.Cleanup(func() { thisUser = saved })
}

// accountFiles points privateGroup at these /etc/passwd and /etc/group for the rest of the test.
func accountFiles(t *testing.T, passwd, group string) {
	t.Helper()
	dir := t.TempDir()
	savedPasswd, savedGroup := passwdFile, groupFile
	passwdFile, groupFile = filepath.Join(dir, "passwd"), filepath.Join(dir, "group")
	t.Cleanup(func() { passwdFile, groupFile = savedPasswd, savedGroup })
	for file, text := range map[string]string{passwdFile: passwd, groupFile: group} {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
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
