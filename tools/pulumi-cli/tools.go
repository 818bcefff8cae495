//go:build tools

// Package tools pins the Go main packages that tools/install-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
