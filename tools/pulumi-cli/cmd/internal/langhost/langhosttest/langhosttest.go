// Package langhosttest runs a language host of this repo as the engine does, for the hosts' Go
// tests: the test binary starts itself again as the host (its TestMain hands over to the host's
// main when asked), with the environment the test chooses, and reads the port from its first line.
package langhosttest

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// asHost is set in the environment of the test binary started as a host.
const asHost = "LANGHOSTTEST_RUN_MAIN"

// MainIfHost runs main and exits when this process was started by Start or Command; a host's
// TestMain calls it first.
func MainIfHost(main func()) {
	if os.Getenv(asHost) == "1" {
		main()
		os.Exit(0)
	}
}

// Command is the host (this test binary, handing over to the host's main) with args and env (the
// whole environment, KEY=VALUE).
func Command(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append([]string{}, env...), asHost+"=1")
	return cmd
}

// Host is a running host: its process, what it wrote to stderr, and a client of its service.
type Host struct {
	Cmd    *exec.Cmd
	Stderr *bytes.Buffer
	Client pulumirpc.LanguageRuntimeClient
}

// Start starts the host and connects to the port it prints; the host is killed when the test ends.
func Start(t *testing.T, env []string, args ...string) *Host {
	t.Helper()
	cmd := Command(env, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 1)
	go func() {
		reader := bufio.NewReader(stdout)
		line, _ := reader.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, reader) // what the host's programs print later: not to block them
	}()
	var port int
	select {
	case line := <-lines:
		if port, err = strconv.Atoi(strings.TrimSpace(line)); err != nil {
			t.Fatalf("the host's first line is no port: %q (stderr: %s)", line, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the host printed no port in 30 s (stderr: %s)", stderr.String())
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strconv.Itoa(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &Host{Cmd: cmd, Stderr: &stderr, Client: pulumirpc.NewLanguageRuntimeClient(conn)}
}

// Env is this process's environment without the named variables, then with the given KEY=VALUE ones.
func Env(without []string, with ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, w := range without {
			drop = drop || name == w
		}
		if !drop {
			env = append(env, kv)
		}
	}
	return append(env, with...)
}
