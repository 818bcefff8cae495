package langhost

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// OwnedFolder is the folder under which a host keeps its files (the Python host's exec shim, the Go
// host's builds), made ready and checked: <user cache>/<host>/<sub...>, where the user cache is
// $XDG_CACHE_HOME or $HOME/.cache (os.UserCacheDir). With neither (no HOME, as on some CI runners
// and service accounts, or a relative XDG_CACHE_HOME) it is a private folder with an unpredictable
// name in TMPDIR, made once per process and said once on stderr (the engine's log): nothing is
// kept between runs, and no other user can take the name first.
//
// Each folder from <host> down is created private (0700); one that exists already must be a folder
// (a symbolic link is not followed), owned by this user and writable by no one else, else it is
// refused with an error that says so: another local user who planted it could otherwise swap the
// files the host runs. The folder it lies in must not let anyone else rename it away (checkParent).
// A host calls it again right before it runs a file from there (OwnedFile): the checks are by
// path, so they are made when they matter.
func OwnedFolder(host string, sub ...string) (string, error) {
	root, err := os.UserCacheDir()
	if err != nil {
		return runFolder(host, sub...)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", root, err)
	}
	if err := checkParent(root); err != nil {
		return "", err
	}
	return ownFolders(root, append([]string{host}, sub...))
}

// OwnedFile checks, right before a host runs it, that file lies directly in OwnedFolder(host,
// sub...) (checked again) and is a regular file of this user's that no one else may write.
func OwnedFile(file, host string, sub ...string) error {
	dir, err := OwnedFolder(host, sub...)
	if err != nil {
		return err
	}
	if filepath.Dir(file) != dir {
		return fmt.Errorf("refusing to run %s: it is not in %s", file, dir)
	}
	info, err := os.Lstat(file)
	if err != nil {
		return err
	}
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("refusing to run %s: it is not a regular file (%v)", file, info.Mode().Type())
	case int(info.Sys().(*syscall.Stat_t).Uid) != thisUser():
		return fmt.Errorf("refusing to run %s: it belongs to user %d, not to this user (%d)", file, info.Sys().(*syscall.Stat_t).Uid, thisUser())
	case info.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("refusing to run %s: others may write into it (mode %04o)", file, info.Mode().Perm())
	}
	return nil
}

// thisUser is the user the folders must belong to (a variable so that a test without root can ask
// the check about another user).
var thisUser = os.Geteuid

var (
	runFoldersMu sync.Mutex
	runFolders   = map[string]string{} // host -> this process's folder in TMPDIR
)

// runFolder is the host's folder for this process when there is no user cache.
func runFolder(host string, sub ...string) (string, error) {
	runFoldersMu.Lock()
	defer runFoldersMu.Unlock()
	dir, made := runFolders[host]
	if !made {
		if err := checkParent(os.TempDir()); err != nil {
			return "", err
		}
		var err error
		if dir, err = os.MkdirTemp("", host+"-"); err != nil { // 0700, a random name
			return "", fmt.Errorf("creating a private folder in %s: %w", os.TempDir(), err)
		}
		runFolders[host] = dir
		fmt.Fprintf(os.Stderr, "%s: no user cache folder (set HOME or XDG_CACHE_HOME to keep files between runs): this run keeps its files in %s\n", host, dir)
	}
	return ownFolders(filepath.Dir(dir), append([]string{filepath.Base(dir)}, sub...))
}

// ownFolders makes or checks root/parts[0]/parts[1]/... in turn; the deepest.
func ownFolders(root string, parts []string) (string, error) {
	dir := root
	for _, part := range parts {
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
	if uid := info.Sys().(*syscall.Stat_t).Uid; int(uid) != thisUser() {
		return refuse(fmt.Sprintf("it belongs to user %d, not to this user (%d)", uid, thisUser()))
	}
	if info.Mode().Perm()&0o022 != 0 {
		return refuse(fmt.Sprintf("others may write into it (mode %04o)", info.Mode().Perm()))
	}
	return nil
}

// checkParent: whoever may rename entries of the folder ours lies in can move ours away and put
// their own in its place. So the folder must be this user's, writable by no other user: not by
// all, and by its group only when that group is the user's private group. A sticky folder (/tmp)
// lets others add entries but not rename ours, unless they own it: it must be root's or ours.
func checkParent(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	stat := info.Sys().(*syscall.Stat_t)
	perm := info.Mode().Perm()
	refuse := func(why string) error {
		return fmt.Errorf("refusing to keep files in %s: %s; set XDG_CACHE_HOME (or HOME) to a folder of your own", dir, why)
	}
	if info.Mode()&fs.ModeSticky != 0 {
		if stat.Uid != 0 && int(stat.Uid) != thisUser() {
			return refuse(fmt.Sprintf("it is sticky but belongs to user %d, who may rename what is in it", stat.Uid))
		}
		return nil
	}
	switch {
	case int(stat.Uid) != thisUser():
		return refuse(fmt.Sprintf("it belongs to user %d, not to this user (%d)", stat.Uid, thisUser()))
	case perm&0o002 != 0:
		return refuse(fmt.Sprintf("others may write into it (mode %04o) and it is not sticky", perm))
	case perm&0o020 != 0 && !privateGroup(stat.Gid):
		return refuse(fmt.Sprintf("its group (%d) may write into it (mode %04o) and is not this user's private group", stat.Gid, perm))
	}
	return nil
}

// The account files privateGroup reads (variables for tests).
var (
	passwdFile = "/etc/passwd"
	groupFile  = "/etc/group"
)

// privateGroup: gid is this user's alone, as the "user private group" Debian, Ubuntu and Red Hat
// make for each user (a group-writable ~/.cache made with umask 002 is then still the user's): the
// user's primary group, named as the user, with no other member and no other account's primary
// group. Read from the local files; accounts only a directory service (LDAP) knows are not seen.
func privateGroup(gid uint32) bool {
	me, others := "", false
	readColonFile(passwdFile, func(fields []string) {
		if len(fields) < 4 {
			return
		}
		uid, _ := strconv.Atoi(fields[2])
		switch {
		case uid == thisUser() && fields[3] == strconv.Itoa(int(gid)):
			me = fields[0]
		case fields[3] == strconv.Itoa(int(gid)):
			others = true
		}
	})
	if me == "" || others {
		return false
	}
	private := false
	readColonFile(groupFile, func(fields []string) {
		if len(fields) < 4 || fields[2] != strconv.Itoa(int(gid)) {
			return
		}
		private = fields[0] == me
		for _, member := range strings.Split(fields[3], ",") {
			if member != "" && member != me {
				private = false
			}
		}
	})
	return private
}

// readColonFile calls each with the fields of each line of /etc/passwd-like file (none if unreadable).
func readColonFile(path string, each func(fields []string)) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if line := lines.Text(); line != "" && !strings.HasPrefix(line, "#") {
			each(strings.Split(line, ":"))
		}
	}
}
