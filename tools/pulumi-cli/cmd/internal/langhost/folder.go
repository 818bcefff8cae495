package langhost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// OwnedFolder is the folder under which a host keeps its files (the Python host's exec shim, the Go
// host's builds), made ready and checked: <user cache>/<host>/<sub...>, where the user cache is
// $XDG_CACHE_HOME or $HOME/.cache (os.UserCacheDir); with neither (no HOME, as on some CI runners
// and service accounts, or a relative XDG_CACHE_HOME), <TMPDIR>/<host>-<uid>.
//
// Each folder from <host> down is created private (0700); one that exists already must be a folder
// (a symbolic link is not followed), owned by this user and writable by no one else, else it is
// refused with an error that says so: another local user who planted it could otherwise swap the
// files the host runs. The folder it lies in must not let anyone rename it away (not writable by
// all, or sticky as /tmp is).
func OwnedFolder(host string, sub ...string) (string, error) {
	root, err := os.UserCacheDir()
	name := host
	if err != nil {
		root, name = os.TempDir(), host+"-"+strconv.Itoa(os.Geteuid())
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", root, err)
	}
	if err := checkParent(root); err != nil {
		return "", err
	}
	dir := root
	for _, part := range append([]string{name}, sub...) {
		dir = filepath.Join(dir, part)
		if err := ownFolder(dir); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// ownFolder creates dir private, or checks the one that is there.
func ownFolder(dir string) error {
	if err := os.Mkdir(dir, 0o700); err == nil || !errors.Is(err, fs.ErrExist) {
		return err
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	refuse := func(why string) error {
		return fmt.Errorf("refusing to use %s: %s; remove it, or set XDG_CACHE_HOME (or HOME) to a folder of your own", dir, why)
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		return refuse("it is a symbolic link")
	}
	if !info.IsDir() {
		return refuse("it is not a folder")
	}
	if uid := info.Sys().(*syscall.Stat_t).Uid; int(uid) != os.Geteuid() {
		return refuse(fmt.Sprintf("it belongs to user %d, not to this user (%d)", uid, os.Geteuid()))
	}
	if info.Mode().Perm()&0o022 != 0 {
		return refuse(fmt.Sprintf("others may write into it (mode %04o)", info.Mode().Perm()))
	}
	return nil
}

// checkParent: a folder anyone may write into (and not sticky) lets them rename ours away and put
// their own in its place. Group-writable is let pass here: with a private group per user, the
// default on Debian and Ubuntu, a ~/.cache made with umask 002 is group-writable and still the
// user's alone.
func checkParent(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o002 != 0 && info.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("refusing to keep files in %s: others may write into it (mode %04o) and it is not sticky; set XDG_CACHE_HOME (or HOME) to a folder of your own",
			dir, info.Mode().Perm())
	}
	return nil
}
