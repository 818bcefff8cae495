// Run: build the program with `go build` (or take the binary Pulumi.yaml names) and run it with the
// environment github.com/pulumi/pulumi/sdk/v3/go/pulumi reads, as Pulumi's Go host does.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/errutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/executable"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

// goOptions are Pulumi.yaml's `runtime.options` for Go, the same two as Pulumi's host.
type goOptions struct {
	binary      string // a prebuilt program, looked up on PATH (or a path); nothing is built
	buildTarget string // where `go build` writes the program (kept); default: a temporary file
}

func parseOptions(options *structpb.Struct) (goOptions, error) {
	var opts goOptions
	fields := options.GetFields()
	for name, target := range map[string]*string{"binary": &opts.binary, "buildTarget": &opts.buildTarget} {
		value, ok := fields[name]
		if !ok {
			continue
		}
		text, isString := value.GetKind().(*structpb.Value_StringValue)
		if !isString {
			return opts, fmt.Errorf("%s option must be a string", name)
		}
		*target = text.StringValue
	}
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
	if opts.binary != "" {
		if program, err = executable.FindExecutable(opts.binary); err != nil {
			return nil, fmt.Errorf("unable to find '%s' executable: %w", opts.binary, err)
		}
	} else {
		if program, err = compileProgram(ctx, info.GetProgramDirectory(), opts.buildTarget); err != nil {
			return nil, errutil.ErrorWithStderr(err, "error in compiling Go")
		}
		if opts.buildTarget == "" {
			defer os.Remove(program)
		}
	}
	return runProgram(program, req.GetPwd(), env), nil
}

// compileProgram runs `go build -o OUT` in the program's folder; OUT is outfile (relative to that
// folder), or a new temporary file.
func compileProgram(ctx context.Context, programDir, outfile string) (string, error) {
	pattern := filepath.Join(programDir, "*.go")
	if matches, err := filepath.Glob(pattern); err != nil || len(matches) == 0 {
		return "", fmt.Errorf("Failed to find go files for 'go build' matching %s", pattern) //nolint:staticcheck // Pulumi's host's words
	}
	if outfile == "" {
		f, err := os.CreateTemp("", "pulumi-go.*")
		if err != nil {
			return "", fmt.Errorf("unable to create go program temp file: %w", err)
		}
		if err := f.Close(); err != nil {
			return "", fmt.Errorf("unable to close go program temp file: %w", err)
		}
		outfile = f.Name()
	}
	gobin, err := findGo()
	if err != nil {
		return "", err
	}
	build := exec.CommandContext(ctx, gobin, "build", "-o", outfile)
	build.Dir = programDir
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
// (sdk/v3/go/pulumi/run.go, getEnvInfo); empty values are left out, as Pulumi's host does.
func (h *goHost) programEnv(req *pulumirpc.RunRequest) ([]string, error) {
	config := ""
	if req.GetConfig() != nil {
		b, err := json.Marshal(req.GetConfig())
		if err != nil {
			return nil, err
		}
		config = string(b)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	for _, kv := range [][2]string{
		{pulumi.EnvOrganization, req.GetOrganization()},
		{pulumi.EnvProject, req.GetProject()},
		{pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory()},
		{pulumi.EnvStack, req.GetStack()},
		{pulumi.EnvConfig, config},
		{pulumi.EnvConfigSecretKeys, string(secretKeysJSON)},
		{pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun())},
		{pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel()))},
		{pulumi.EnvMonitor, req.GetMonitorAddress()},
		{pulumi.EnvEngine, h.engine()},
	} {
		if kv[1] != "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env, nil
}

// runProgram runs the built program; its failure is the RunResponse's, as the engine expects.
func runProgram(program, pwd string, env []string) *pulumirpc.RunResponse {
	cmd := exec.Command(program)
	cmd.Dir = pwd
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("command errored unexpectedly: %v", err)}
	}
	status, ok := exitErr.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited unexpectedly: %v", err)}
	case status.Signaled():
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited due to a signal: %v", status.Signal())}
	case status.ExitStatus() == constant.ExitStatusLoggedError:
		// The program has already reported its error through the engine: nothing more to print.
		return &pulumirpc.RunResponse{Bail: true}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", status.ExitStatus())}
	}
}
