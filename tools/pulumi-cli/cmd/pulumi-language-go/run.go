// Run: build the program with `go build` (or take the binary Pulumi.yaml names) and run it with the
// environment github.com/pulumi/pulumi/sdk/v3/go/pulumi reads, as Pulumi's Go host does.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/errutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/executable"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

// goOptions are Pulumi.yaml's `runtime.options` for Go, the same two as Pulumi's host.
type goOptions struct {
	binary      string // a prebuilt program, looked up on PATH (or a path); nothing is built
	buildTarget string // where `go build` writes the program (kept); default: the host's own folder, removed after the run
}

func parseOptions(options *structpb.Struct) (goOptions, error) {
	values, err := langhost.ReadOptions(options, langhost.Option{Name: "binary"}, langhost.Option{Name: "buildTarget"})
	if err != nil {
		return goOptions{}, err
	}
	opts := goOptions{binary: values["binary"], buildTarget: values["buildTarget"]}
	if opts.binary != "" && opts.buildTarget != "" {
		return opts, errors.New("binary and buildTarget cannot both be specified")
	}
	return opts, nil
}

func findGo() (string, error) {
	gobin, err := executable.FindExecutable("go")
	if err != nil {
		return "", fmt.Errorf("unable to find 'go' executable: %w", err)
	}
	return gobin, nil
}

func (h *goHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return nil, errors.New("this Go language host cannot attach a debugger; run without --attach-debugger")
	}
	info := req.GetInfo()
	opts, err := parseOptions(info.GetOptions())
	if err != nil {
		return nil, err
	}
	env, err := h.programEnv(req)
	if err != nil {
		return nil, fmt.Errorf("failed to prepare environment: %w", err)
	}

	program := ""
	switch {
	case opts.binary != "":
		if program, err = executable.FindExecutable(opts.binary); err != nil {
			return nil, fmt.Errorf("unable to find '%s' executable: %w", opts.binary, err)
		}
	case opts.buildTarget != "":
		if program, err = compileProgram(ctx, info.GetProgramDirectory(), opts.buildTarget); err != nil {
			return nil, errutil.ErrorWithStderr(err, "error in compiling Go")
		}
	default:
		built, err := buildProgram(ctx, info.GetProgramDirectory())
		if err != nil {
			return nil, errutil.ErrorWithStderr(err, "error in compiling Go")
		}
		defer built.remove()
		// Checked again right before it runs: the folder and the file are still this user's alone.
		if err := langhost.OwnedFile(built.program, "pulumi-language-go", "builds"); err != nil {
			return nil, err
		}
		program = built.program
	}
	cmd := exec.Command(program)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	return langhost.RunProgram(cmd), nil
}

// A build of this host, and the lock that says it is in use.
type build struct {
	program string
	lock    *os.File
}

// remove deletes the build, then its lock file, and lets the lock go.
func (b build) remove() {
	_ = os.Remove(b.program)
	_ = os.Remove(b.program + ".lock")
	_ = b.lock.Close()
}

// buildProgram builds a program that names no buildTarget into the host's own folder in the user's
// cache (langhost.OwnedFolder), not into TMPDIR: the engine ends a language host with SIGKILL, and
// a build made for a run that was killed so would stay behind. Each build <pid>-<nonce> has a lock
// file beside it, <pid>-<nonce>.lock, which the host holds (flock) while the build is in use; the
// kernel lets the lock go when the process ends, however it ends. The next build, of any program,
// removes the builds whose lock it can take. Not judged by the process id: in containers that share
// HOME, a live host of another container has an id this one's kernel does not know.
func buildProgram(ctx context.Context, programDir string) (build, error) {
	dir, err := langhost.OwnedFolder("pulumi-language-go", "builds")
	if err != nil {
		return build{}, err
	}
	removeOrphanedBuilds(dir)
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return build{}, err
	}
	out := filepath.Join(dir, fmt.Sprintf("%d-%x", os.Getpid(), nonce))
	lock, err := lockBuild(out)
	if err != nil {
		return build{}, err
	}
	b := build{program: out, lock: lock}
	if _, err := compileProgram(ctx, programDir, out); err != nil {
		b.remove()
		return build{}, err
	}
	return b, nil
}

// lockBuild makes <out>.lock and holds its lock. Made under another name, locked, then renamed:
// another host's cleanup only looks at *.lock files, so it never sees this one unlocked.
func lockBuild(out string) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(out), ".locking-*")
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("locking the build %s: %w", out, err)
	}
	if err := os.Rename(f.Name(), out+".lock"); err != nil {
		f.Close()
		_ = os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// removeOrphanedBuilds removes the builds no host holds: those whose lock file it can lock (the
// host is gone), and those with no lock file (made by a host before locks, or left between the
// removal of a build and of its lock). A lock file left half-made (.locking-*) goes after a minute.
func removeOrphanedBuilds(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, entry := range entries {
		name := entry.Name()
		path := filepath.Join(dir, name)
		switch {
		case strings.HasSuffix(name, ".lock"):
			if f, err := os.Open(path); err == nil {
				if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
					_ = os.Remove(strings.TrimSuffix(path, ".lock"))
					_ = os.Remove(path)
				}
				f.Close()
			}
		case strings.HasPrefix(name, ".locking-"):
			if info, err := entry.Info(); err == nil && time.Since(info.ModTime()) > time.Minute {
				_ = os.Remove(path)
			}
		default:
			if _, err := os.Lstat(path + ".lock"); errors.Is(err, fs.ErrNotExist) {
				_ = os.Remove(path)
			}
		}
	}
}

// compileProgram runs `go build -o OUT` in the program's folder; OUT is relative to that folder.
func compileProgram(ctx context.Context, programDir, outfile string) (string, error) {
	pattern := filepath.Join(programDir, "*.go")
	if matches, err := filepath.Glob(pattern); err != nil || len(matches) == 0 {
		return "", fmt.Errorf("Failed to find go files for 'go build' matching %s", pattern) //nolint:staticcheck // Pulumi's host's words
	}
	gobin, err := findGo()
	if err != nil {
		return "", err
	}
	build := exec.CommandContext(ctx, gobin, "build", "-o", outfile)
	build.Dir = programDir
	// Stopped with an interrupt, not killed: the go command then removes its work folder in TMPDIR.
	build.Cancel = func() error { return build.Process.Signal(os.Interrupt) }
	build.WaitDelay = 10 * time.Second
	// The engine shows what the host writes: the compiler's messages reach the user as they come.
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("unable to run `go build`: %w", err)
	}
	if !filepath.IsAbs(outfile) {
		outfile = filepath.Join(programDir, outfile)
	}
	if ok, err := executable.IsExecutable(outfile); err != nil {
		return "", fmt.Errorf("unable to check if go program is executable: %w", err)
	} else if !ok {
		return "", errors.New("go program is not executable, does your program have a 'main' package?")
	}
	return outfile, nil
}

// programEnv is the host's environment plus the run's settings, in the variables pulumi.Run reads
// (sdk/v3/go/pulumi/run.go, getEnvInfo): the config as every host of this repo sends it
// (langhost.ConfigEnv), the others left out when empty, as Pulumi's host does.
func (h *goHost) programEnv(req *pulumirpc.RunRequest) ([]string, error) {
	configEnv, err := langhost.ConfigEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), configEnv...)
	for _, kv := range [][2]string{
		{pulumi.EnvOrganization, req.GetOrganization()},
		{pulumi.EnvProject, req.GetProject()},
		{pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory()},
		{pulumi.EnvStack, req.GetStack()},
		{pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun())},
		{pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel()))},
		{pulumi.EnvMonitor, req.GetMonitorAddress()},
		{pulumi.EnvEngine, h.Engine()},
	} {
		if kv[1] != "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env, nil
}
