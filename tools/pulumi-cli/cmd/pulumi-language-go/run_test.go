package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost/langhosttest"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func TestMain(m *testing.M) {
	langhosttest.MainIfHost(main)
	os.Exit(m.Run())
}

// A program with no dependencies that writes its process id to $PIDFILE, then sleeps.
const sleeper = `package main

import (
	"os"
	"strconv"
	"time"
)

func main() {
	if err := os.WriteFile(os.Getenv("PIDFILE"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		panic(err)
	}
	time.Sleep(time.Minute)
}
`

// goEnv is the host's environment: TMPDIR and the user cache folders of this test's, Go's build
// cache the machine's (so the program compiles in seconds), no module downloads.
func goEnv(t *testing.T, root string, extra ...string) []string {
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return langhosttest.Env([]string{"TMPDIR", "XDG_CACHE_HOME", "GOCACHE", "GOFLAGS", "GOPROXY", "GOWORK"}, append([]string{
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "cache"),
		"GOCACHE=" + strings.TrimSpace(string(gocache)),
		"GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod",
	}, extra...)...)
}

func writeProgram(t *testing.T, dir, source string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"go.mod": "module example.com/program\n\ngo 1.22\n", "main.go": source} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runRequest(dir string) *pulumirpc.RunRequest {
	return &pulumirpc.RunRequest{
		Pwd:  dir,
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir, RootDirectory: dir, EntryPoint: "."},
	}
}

// The engine ends a language host with SIGKILL (as when a run is interrupted): the program the
// host built must not stay behind in TMPDIR, and what stays in the host's own folder is removed
// by the next build.
func TestASIGKILLedGoHostLeavesNothingInTMPDIR(t *testing.T) {
	root := t.TempDir()
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(root, "program")
	writeProgram(t, program, sleeper)
	pidFile := filepath.Join(root, "program.pid")
	host := langhosttest.Start(t, goEnv(t, root, "PIDFILE="+pidFile))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _ = host.Client.Run(ctx, runRequest(program)) }()
	var programPID int
	for deadline := time.Now().Add(3 * time.Minute); programPID == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the program did not start in 3 minutes (host: %s)", host.Stderr.String())
		}
		if text, err := os.ReadFile(pidFile); err == nil && len(text) > 0 {
			programPID, _ = strconv.Atoi(string(text))
		}
	}
	defer syscall.Kill(programPID, syscall.SIGKILL) //nolint:errcheck // the program outlives its host: end it

	if err := host.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = host.Cmd.Wait()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("left in TMPDIR: %v", names(left))
	}
	builds := filepath.Join(root, "cache", "pulumi-language-go", "builds")
	left, _ := os.ReadDir(builds)
	if len(left) != 2 || !strings.HasPrefix(left[0].Name(), strconv.Itoa(host.Cmd.Process.Pid)+"-") || left[1].Name() != left[0].Name()+".lock" {
		t.Fatalf("in the host's folder: %v, want the killed host's build and its lock file", names(left))
	}

	// The next host's next build removes it; its own build is removed once its program has run.
	writeProgram(t, program, "package main\n\nfunc main() {}\n")
	next := langhosttest.Start(t, goEnv(t, root))
	response, err := next.Client.Run(context.Background(), runRequest(program))
	if err != nil || response.GetError() != "" {
		t.Fatalf("the next run: %v, %v (%s)", response, err, next.Stderr.String())
	}
	if left, _ := os.ReadDir(builds); len(left) != 0 {
		t.Fatalf("left in the host's folder after the next run: %v", names(left))
	}
}

// A build is in use while its lock is held, whatever its process id says: a host in another
// container that shares HOME has a process id this kernel does not know (999999 here), and its
// build must stay; once the lock is let go, the next cleanup removes the build and the lock file.
func TestABuildStaysWhileItsLockIsHeldWhateverItsProcessId(t *testing.T) {
	dir := t.TempDir()
	build := filepath.Join(dir, "999999-00112233")
	if err := os.WriteFile(build, []byte("a build"), 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := lockBuild(build)
	if err != nil {
		t.Fatal(err)
	}
	removeOrphanedBuilds(dir)
	if left, _ := os.ReadDir(dir); len(left) != 2 {
		t.Fatalf("with its lock held: %v, want the build and its lock file kept", names(left))
	}
	lock.Close() // the host ends
	removeOrphanedBuilds(dir)
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("after its lock was let go: %v, want nothing", names(left))
	}
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// go.mod is read in Go (modfile), from the program's folder or a folder above it.
func TestReadGoModFindsTheModuleAbove(t *testing.T) {
	root := t.TempDir()
	text := "module example.com/m\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.2.3\n\tgithub.com/c/d v0.1.0 // indirect\n)\n\nreplace github.com/a/b => ./b\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "cmd", "program")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, mod, err := readGoMod(sub)
	if err != nil {
		t.Fatal(err)
	}
	if dir != root || mod.Module.Mod.Path != "example.com/m" || len(mod.Require) != 2 || !mod.Require[1].Indirect || len(mod.Replace) != 1 {
		t.Fatalf("got %s, %+v", dir, mod)
	}
	if _, _, err := readGoMod(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no go.mod file found") {
		t.Fatalf("outside a module: %v", err)
	}
}

// `go mod tidy` rewrites the user's go.mod: only for requirements that are in fact missing.
func TestTidyOnlyForMissingRequirements(t *testing.T) {
	// What `go mod tidy -diff` printed for a program importing golang.org/x/mod/semver with a go.mod
	// that required only an unused golang.org/x/sync, and github.com/c/d marked indirect.
	diff := `diff current/go.mod tidy/go.mod
--- current/go.mod
+++ tidy/go.mod
@@ -1,6 +1,6 @@
 module example.com/p
 
-go 1.25
+go 1.26.0
 
-require golang.org/x/sync v0.1.0
-	github.com/c/d v0.1.0
+require golang.org/x/mod v0.43.0
+	github.com/c/d v0.1.0 // indirect

diff current/go.sum tidy/go.sum
--- current/go.sum
+++ tidy/go.sum
@@ -0,0 +1,2 @@
+golang.org/x/mod v0.43.0 h1:MFuq5J6s35W9D3IjkwyWc9vHh0nENOrt5K8Iof4ofmg=
+golang.org/x/mod v0.43.0/go.mod h1:4ec1JnuyBz5+FIVhg86UsA39YG8BpnrZdJYSNHmGzHY=
`
	if got := addedRequirements([]byte(diff)); strings.Join(got, ";") != "golang.org/x/mod v0.43.0" {
		t.Fatalf("missing: %q", got)
	}

	root := t.TempDir()
	program := filepath.Join(root, "program")
	writeProgram(t, program, "package main\n\nfunc main() {}\n")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	if missing, err := missingRequirements(context.Background(), program); err != nil || len(missing) != 0 {
		t.Fatalf("a complete go.mod: %v, %v", missing, err)
	}
	// An import no module can be found for (here: no proxy) is a failure to report, not a reason
	// to rewrite go.mod.
	writeProgram(t, program, "package main\n\nimport _ \"example.org/nowhere/pkg\"\n\nfunc main() {}\n")
	missing, err := missingRequirements(context.Background(), program)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || !strings.Contains(err.Error(), "example.org/nowhere/pkg") || missing != nil {
		t.Fatalf("got %v, %v", missing, err)
	}
}

// pulumi install, through the host: go mod tidy only when go.mod lacks what the program imports,
// and saying which; a complete go.mod is left as it is, a failure is reported and rewrites nothing.
func TestInstallDependenciesTidiesOnlyWhenRequirementsAreMissing(t *testing.T) {
	root := t.TempDir()
	// A module cache of the test's own (writable, so that the test can remove it).
	host := langhosttest.Start(t, append(goEnv(t, root), "GOPROXY="+localProxy(t), "GOSUMDB=off",
		"GOMODCACHE="+filepath.Join(root, "modcache"), "GOFLAGS=-mod=mod -modcacherw"))
	program := filepath.Join(root, "program")
	install := func() (string, error) {
		stream, err := host.Client.InstallDependencies(context.Background(), &pulumirpc.InstallDependenciesRequest{
			Info: &pulumirpc.ProgramInfo{ProgramDirectory: program, RootDirectory: program, EntryPoint: "."},
		})
		if err != nil {
			return "", err
		}
		var out strings.Builder
		for {
			response, err := stream.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				return out.String(), err
			}
			out.Write(response.GetStdout())
		}
	}
	goMod := func() string {
		text, err := os.ReadFile(filepath.Join(program, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		return string(text)
	}

	writeProgram(t, program, "package main\n\nimport \"example.com/greeting\"\n\nfunc main() { println(greeting.Hello) }\n")
	out, err := install()
	if err != nil || !strings.Contains(out, "go.mod and go.sum lack what the program imports (example.com/greeting v1.0.0): running go mod tidy") ||
		!strings.Contains(goMod(), "require example.com/greeting v1.0.0") {
		t.Fatalf("a missing requirement: %v\n%s\ngo.mod:\n%s", err, out, goMod())
	}

	tidied := goMod()
	out, err = install()
	if err != nil || strings.Contains(out, "go mod tidy") || !strings.Contains(out, "Finished installing dependencies") || goMod() != tidied {
		t.Fatalf("a complete go.mod: %v\n%s", err, out)
	}

	writeProgram(t, program, "package main\n\nimport _ \"example.org/nowhere/pkg\"\n\nfunc main() {}\n")
	before := goMod()
	if out, err = install(); err == nil || strings.Contains(out, "go mod tidy") || goMod() != before {
		t.Fatalf("an import no module provides: %v\n%s", err, out)
	}
}

// localProxy is a GOPROXY folder (file://) serving one module, example.com/greeting v1.0.0.
func localProxy(t *testing.T) string {
	source, proxy := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(source, "go.mod"):      "module example.com/greeting\n\ngo 1.22\n",
		filepath.Join(source, "greeting.go"): "package greeting\n\nconst Hello = \"hello\"\n",
	}
	versions := filepath.Join(proxy, "example.com", "greeting", "@v")
	files[filepath.Join(versions, "list")] = "v1.0.0\n"
	files[filepath.Join(versions, "v1.0.0.info")] = `{"Version":"v1.0.0","Time":"2026-01-01T00:00:00Z"}`
	files[filepath.Join(versions, "v1.0.0.mod")] = "module example.com/greeting\n\ngo 1.22\n"
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zipFile, err := os.Create(filepath.Join(versions, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zipFile.Close()
	if err := modzip.CreateFromDir(zipFile, module.Version{Path: "example.com/greeting", Version: "v1.0.0"}, source); err != nil {
		t.Fatal(err)
	}
	return "file://" + proxy
}
