package langhost

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ConfigEnv is the stack's configuration in the variables every Pulumi SDK reads (pulumi.EnvConfig,
// pulumi.EnvConfigSecretKeys): a stack without config is sent as `{}` and no secret keys as `[]`,
// never `null`, which the Python SDK cannot read.
func ConfigEnv(config map[string]string, secretKeys []string) ([]string, error) {
	if config == nil {
		config = map[string]string{}
	}
	if secretKeys == nil {
		secretKeys = []string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration: %w", err)
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration secret keys: %w", err)
	}
	return []string{
		pulumi.EnvConfig + "=" + string(configJSON),
		pulumi.EnvConfigSecretKeys + "=" + string(secretKeysJSON),
	}, nil
}

// RunProgram runs a program for the engine's Run (its output is the host's, which the engine
// shows) and answers as Pulumi's hosts do: Bail when the program exits with
// constant.ExitStatusLoggedError (it has reported its error through the engine already), an
// Error naming the exit code or signal otherwise.
func RunProgram(cmd *exec.Cmd) *pulumirpc.RunResponse {
	if cmd.Stdout == nil {
		cmd.Stdout = os.Stdout
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	err := cmd.Run()
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	// A program that ends abnormally may not have flushed: flush ours, so the engine has all it wrote.
	_ = os.Stdout.Sync()
	_ = os.Stderr.Sync()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("problem executing program (could not run language executor): %v", err)}
	}
	if status, ok := exitErr.Sys().(syscall.WaitStatus); ok && status.Signaled() {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited due to a signal: %v", status.Signal())}
	}
	if exitErr.ExitCode() == constant.ExitStatusLoggedError {
		return &pulumirpc.RunResponse{Bail: true}
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", exitErr.ExitCode())}
}
