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

// Another local user plants a world-writable folder where the host would keep its exec shim, to
// swap the shim the host then runs with the user's rights: the host refuses it and says so.
func TestWithHomeUnsetThePythonHostRefusesAPlantedWorldWritableFolder(t *testing.T) {
	env, tmp := hostWithoutHome(t)
	for _, planted := range []string{
		filepath.Join(tmp, "pulumi-language-python-"+strconv.Itoa(os.Geteuid())), // where the host keeps it without HOME
		filepath.Join(tmp, "pulumi-language-python"),                             // where it did before
	} {
		if err := os.Mkdir(planted, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(planted, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	host := langhosttest.Command(env)
	done := make(chan []byte, 1)
	go func() {
		out, _ := host.CombinedOutput()
		done <- out
	}()
	select {
	case out := <-done:
		if host.ProcessState.ExitCode() != 1 {
			t.Fatalf("exit %d, want 1 (%s)", host.ProcessState.ExitCode(), out)
		}
		want := "pulumi-language-python: the exec shim's folder: refusing to use " +
			filepath.Join(tmp, "pulumi-language-python-"+strconv.Itoa(os.Geteuid())) + ": others may write into it (mode 0777)"
		if !strings.Contains(string(out), want) {
			t.Fatalf("the host said %q, want %q", out, want)
		}
	case <-time.After(30 * time.Second):
		_ = host.Process.Kill()
		t.Fatal("the host started with a planted world-writable folder (it still runs after 30 s)")
	}
	for _, planted := range []string{"pulumi-language-python-" + strconv.Itoa(os.Geteuid()), "pulumi-language-python"} {
		if entries, _ := os.ReadDir(filepath.Join(tmp, planted)); len(entries) != 0 {
			t.Fatalf("the host wrote into the planted folder %s: %v", planted, entries)
		}
	}
}

// With nothing planted, the host makes that folder itself, private, and writes the shim into it.
func TestWithHomeUnsetThePythonHostKeepsItsShimInAPrivateFolder(t *testing.T) {
	env, tmp := hostWithoutHome(t)
	langhosttest.Start(t, env)
	dir := filepath.Join(tmp, "pulumi-language-python-"+strconv.Itoa(os.Geteuid()))
	info, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v, want a private folder", dir, info.Mode())
	}
	shims, _ := filepath.Glob(filepath.Join(dir, "pulumi-language-python-exec-*.py"))
	if len(shims) != 1 {
		t.Fatalf("shims in %s: %v", dir, shims)
	}
	if shim, err := os.ReadFile(shims[0]); err != nil || string(shim) != string(execShim) {
		t.Fatalf("the shim written is not the embedded one (%v)", err)
	}
}
