package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost/langhosttest"
)

func TestMain(m *testing.M) {
	langhosttest.MainIfHost(main)
	os.Exit(m.Run())
}

// hostWithoutHome is the host's environment with no user cache folder (HOME unset, as on some CI
// runners and service accounts) and TMPDIR a folder of this test's.
func hostWithoutHome(t *testing.T) (env []string, tmp string) {
	tmp = t.TempDir()
	return langhosttest.Env([]string{"HOME", "XDG_CACHE_HOME", "TMPDIR"}, "TMPDIR="+tmp), tmp
}

// Without HOME, the host keeps its exec shim in a private folder with a random name, made for this
// run: folders another local user planted at the names it once used (to swap the shim the host runs
// with the user's rights, or to stop it) change nothing, and the host says once where its files are.
func TestWithHomeUnsetThePythonHostKeepsItsShimInAPrivateFolderOfThisRun(t *testing.T) {
	env, tmp := hostWithoutHome(t)
	planted := []string{
		filepath.Join(tmp, "pulumi-language-python-"+strconv.Itoa(os.Geteuid())), // where the host kept it without HOME
		filepath.Join(tmp, "pulumi-language-python"),                             // where it did before that
	}
	for _, dir := range planted {
		if err := os.Mkdir(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	host := langhosttest.Start(t, env)
	for _, dir := range planted {
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("the host wrote into the planted folder %s: %v", dir, entries)
		}
	}
	folders, _ := filepath.Glob(filepath.Join(tmp, "pulumi-language-python-*"))
	var dir string
	for _, folder := range folders {
		if folder != planted[0] {
			dir = folder
		}
	}
	if len(folders) != 2 || dir == "" {
		t.Fatalf("folders in TMPDIR: %v, want the planted one and the host's own", folders)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v, want a private folder", dir, info.Mode())
	}
	said := "pulumi-language-python: no user cache folder (set HOME or XDG_CACHE_HOME to keep files between runs): this run keeps its files in " + dir
	// Written before the port (which Start waited for), but copied from the host's stderr apart.
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(host.Stderr.String(), said) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if strings.Count(host.Stderr.String(), said) != 1 {
		t.Fatalf("the host said %q, want once %q", host.Stderr.String(), said)
	}
	shims, _ := filepath.Glob(filepath.Join(dir, "pulumi-language-python-exec-*.py"))
	if len(shims) != 1 {
		t.Fatalf("shims in %s: %v", dir, shims)
	}
	if shim, err := os.ReadFile(shims[0]); err != nil || string(shim) != string(execShim) {
		t.Fatalf("the shim written is not the embedded one (%v)", err)
	}
}
