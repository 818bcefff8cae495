// Package langhost is the process around each language host of this repo (tools/pulumi-cli/cmd/
// pulumi-language-*): its flags, `-version`, and serving the LanguageRuntime gRPC service to the
// engine that started it until that engine goes away.
package langhost

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// Host is what a language's main gives Main.
type Host struct {
	// Name is the executable's, for flags and error messages (pulumi-language-python).
	Name string
	// Version and BuildID are stamped by tools/install-pulumi.sh; `-version` prints "<Version>+<BuildID>"
	// so that the script can tell a stale build.
	Version, BuildID string
	// Flags registers the host's own flags beside the common ones (may be nil).
	Flags func(*flag.FlagSet)
	// New makes the service for the engine at engineAddress (empty when none was given); the
	// returned function, if any, runs once the host stops serving.
	New func(engineAddress, tracing string) (pulumirpc.LanguageRuntimeServer, func(), error)
}

// Main runs the host and exits: 2 on bad flags, 1 when it could not serve.
func Main(h Host) {
	flags := flag.NewFlagSet(h.Name, flag.ContinueOnError)
	// Flags the engine may pass to any plugin (see buildPluginArguments in the sdk); accepted, mostly unused.
	tracing := flags.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	_ = flags.Bool("logtostderr", false, "log to stderr")
	_ = flags.Int("v", 0, "log verbosity")
	_ = flags.Bool("logflow", false, "flow logging to child processes")
	_ = flags.String("root", "", "project root (unused)")
	printVersion := flags.Bool("version", false, "print the version and build id, then exit")
	if h.Flags != nil {
		h.Flags(flags)
	}
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *printVersion {
		fmt.Printf("%s+%s\n", h.Version, h.BuildID)
		return
	}
	engineAddress := ""
	if flags.NArg() > 0 {
		engineAddress = flags.Arg(0)
	}
	if err := serve(h, engineAddress, *tracing); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", h.Name, err)
		os.Exit(1)
	}
}

func serve(h Host, engineAddress, tracing string) error {
	// The engine starts a host in a process group of its own: a `kill -9` of the engine's group (a
	// cancelled CI job) leaves it running. Like Pulumi's own hosts it watches the engine
	// (rpcutil.Healthcheck) and stops once the engine stops answering, but every second rather than
	// every five minutes, so that nothing of a killed run outlives it by more than a few seconds.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelChannel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancelChannel)
	}()
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, time.Second, cancel); err != nil {
			return fmt.Errorf("could not watch the engine: %w", err)
		}
	}

	service, stop, err := h.New(engineAddress, tracing)
	if err != nil {
		return err
	}
	if stop != nil {
		defer stop()
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, service)
			return nil
		},
	})
	if err != nil {
		return err
	}
	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	return <-handle.Done
}
