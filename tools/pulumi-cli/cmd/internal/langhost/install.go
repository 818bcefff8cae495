package langhost

import (
	"context"
	"fmt"
	"io"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// Installer installs a program's dependencies in dir, writing what it does to stdout and stderr.
type Installer func(ctx context.Context, dir string, stdout, stderr io.Writer) error

// InstallDependencies answers the engine's InstallDependencies (`pulumi install`, and `pulumi up`
// on a fresh checkout) the same way in every host: the program's folder, what install writes
// streamed to the engine (rpcutil's streams, through a terminal when the user has one), framed by
// Pulumi's "Installing dependencies..." and "Finished installing dependencies" lines.
func InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
	install Installer,
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory() //nolint:staticcheck // older engines
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	if err := install(server.Context(), dir, stdout, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}
