package langhost

import (
	"context"
	"errors"
	"flag"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"asset-delivery-as-code/tools/pulumi-cli/cmd/internal/langhost/langhosttest"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/emptypb"
)

// TestMain: started again by langhosttest, this test binary is a host with one flag of its own.
func TestMain(m *testing.M) {
	langhosttest.MainIfHost(func() {
		var greeting *string
		Main(Host{
			Name:    "pulumi-language-test",
			Version: "3.0.0",
			BuildID: "abc123",
			Flags:   func(flags *flag.FlagSet) { greeting = flags.String("greeting", "", "a flag of this host's own") },
			New: func(engineAddress, _ string) (pulumirpc.LanguageRuntimeServer, func(), error) {
				if *greeting == "fail" {
					return nil, nil, errors.New("the host could not start")
				}
				return NewRuntime("3.0.0", engineAddress), nil, nil
			},
		})
	})
	os.Exit(m.Run())
}

func TestVersionFlagPrintsVersionAndBuildID(t *testing.T) {
	out, err := langhosttest.Command(os.Environ(), "-greeting", "hi", "-version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "3.0.0+abc123\n" {
		t.Fatalf("-version printed %q", out)
	}
}

func TestBadFlagsExit2AndAFailedStartExits1(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-no-such-flag"}, 2, "flag provided but not defined: -no-such-flag"},
		{[]string{"-greeting", "fail"}, 1, "pulumi-language-test: the host could not start"},
	} {
		cmd := langhosttest.Command(os.Environ(), c.args...)
		out, err := cmd.CombinedOutput()
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != c.code {
			t.Fatalf("%v: want exit %d, got %v (%s)", c.args, c.code, err, out)
		}
		if !strings.Contains(string(out), c.says) {
			t.Fatalf("%v: want %q in %q", c.args, c.says, out)
		}
	}
}

func TestTheEngineFlagsAreAcceptedAndTheServiceAnswers(t *testing.T) {
	host := langhosttest.Start(t, os.Environ(), "-tracing", "127.0.0.1:1", "-logtostderr", "-v", "9", "-logflow", "-root", "/")
	info, err := host.Client.GetPluginInfo(context.Background(), &emptypb.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	if info.GetVersion() != "3.0.0" {
		t.Fatalf("GetPluginInfo: version %q", info.GetVersion())
	}
	if _, err := host.Client.GetRequiredPackages(context.Background(), &pulumirpc.GetRequiredPackagesRequest{}); err == nil ||
		!strings.Contains(err.Error(), "Unimplemented") {
		t.Fatalf("a call the host does not serve: want gRPC's unimplemented, got %v", err)
	}
}

// answeringEngine stands in for the engine: it answers the health checks a host sends (SERVING),
// each one reported on checks.
type answeringEngine struct {
	healthpb.UnimplementedHealthServer
	checks chan struct{}
}

func (e *answeringEngine) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	select {
	case e.checks <- struct{}{}:
	default: // more checks than the test counts: it has stopped counting
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// beforeTheDeadline fires shortly before the test binary's -timeout would end the run, so that a
// host that never stops fails this test with its own message: a guard against a hang, not a timing.
func beforeTheDeadline(t *testing.T) <-chan time.Time {
	deadline, ok := t.Deadline()
	if !ok {
		return nil // -timeout 0: wait as long as it takes
	}
	return time.After(time.Until(deadline) * 9 / 10)
}

// The engine starts a host in a process group of its own: the host must stop by itself once the
// engine stops answering (rpcutil.Healthcheck, every second here). Ordering, not time: the host
// runs through health checks the engine answers, and stops after the engine is gone, not before.
func TestTheHostStopsWhenTheEngineGoesAway(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	engine := grpc.NewServer()
	answering := &answeringEngine{checks: make(chan struct{}, 16)}
	healthpb.RegisterHealthServer(engine, answering)
	go func() { _ = engine.Serve(listener) }()
	defer engine.Stop()

	host := langhosttest.Start(t, os.Environ(), listener.Addr().String())
	exited := make(chan error, 1)
	go func() { exited <- host.Cmd.Wait() }()
	deadline := beforeTheDeadline(t)
	for answered := 0; answered < 3; {
		select {
		case <-answering.checks:
			answered++
		case err := <-exited:
			t.Fatalf("the host stopped while the engine answered, after %d health checks: %v (%s)", answered, err, host.Stderr.String())
		case <-deadline:
			t.Fatalf("the host made %d health checks of the engine by the test's deadline (%s)", answered, host.Stderr.String())
		}
	}
	engine.Stop()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the host stopped with %v (%s)", err, host.Stderr.String())
		}
	case <-deadline:
		t.Fatal("the host still runs at the test's deadline, after the engine went away")
	}
}

func TestRuntimeKeepsTheEngineAddressAHandshakeNames(t *testing.T) {
	runtime := NewRuntime("3.0.0", "")
	if _, err := runtime.Handshake(context.Background(), &pulumirpc.LanguageHandshakeRequest{EngineAddress: "127.0.0.1:5000"}); err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.Handshake(context.Background(), &pulumirpc.LanguageHandshakeRequest{}); err != nil {
		t.Fatal(err)
	}
	if runtime.Engine() != "127.0.0.1:5000" {
		t.Fatalf("engine %q", runtime.Engine())
	}
}
