// Run: build the program with `go build` (or take the binary Pulumi.yaml names) and run it with the
// environment github.com/pulumi/pulumi/sdk/v3/go/pulumi reads, as Pulumi's Go host does.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
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
		if program, err = buildProgram(ctx, info.GetProgramDirectory()); err != nil {
			return nil, errutil.ErrorWithStderr(err, "error in compiling Go")
		}
		defer os.Remove(program)
	}
	cmd := exec.Command(program)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	return langhost.RunProgram(cmd), nil
}

// buildProgram builds a program that names no buildTarget into the host's own folder in the user's
// cache (langhost.OwnedFolder), not into TMPDIR: the engine ends a language host with SIGKILL, and
// a build made for a run that was killed so would stay behind. Each build is named by the host's
// process id; the next build, of any program, removes those of hosts that no longer run.
func buildProgram(ctx context.Context, programDir string) (string, error) {
	dir, err := langhost.OwnedFolder("pulumi-language-go", "builds")
	if err != nil {
		return "", err
	}
	removeOrphanedBuilds(dir)
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", err
	}
	return compileProgram(ctx, programDir, filepath.Join(dir, fmt.Sprintf("%d-%x", os.Getpid(), nonce)))
}

// removeOrphanedBuilds removes the builds of hosts that are gone (their process id names no process).
func removeOrphanedBuilds(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, entry := range entries {
		pidText, _, _ := strings.Cut(entry.Name(), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			_ = os.Remove(filepath.Join(dir, entry.Name()))
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
