//go:build tools

// Package tools pins the Pulumi CLI main package that `tools/install-pulumi.sh oldest` builds.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
