package langhost

import (
	"context"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Runtime answers the LanguageRuntime calls every host answers alike (Handshake, GetPluginInfo,
// RuntimeOptionsPrompts) and keeps the engine's address; a host embeds it and adds its own calls.
// Calls it lacks answer gRPC's "unimplemented".
type Runtime struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	version string

	mu            sync.Mutex
	engineAddress string
}

// NewRuntime is the part of a host at version that talks to the engine at engineAddress (the
// address on the command line; empty when none was given, until the engine's Handshake names it).
func NewRuntime(version, engineAddress string) *Runtime {
	return &Runtime{version: version, engineAddress: engineAddress}
}

// Engine is the engine's address, for the programs a host starts.
func (r *Runtime) Engine() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.engineAddress
}

// Handshake takes the engine's address from newer engines (which start a host without one).
func (r *Runtime) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if address := req.GetEngineAddress(); address != "" {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.engineAddress = address
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (r *Runtime) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: r.version}, nil
}

// RuntimeOptionsPrompts: none (`pulumi new` asks nothing more of our hosts).
func (r *Runtime) RuntimeOptionsPrompts(
	context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}
