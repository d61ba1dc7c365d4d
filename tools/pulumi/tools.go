//go:build tools

// The Pulumi CLI as a Go module, for machines that cannot download its release (make pulumi-cli,
// scripts/pulumi-cli.sh). It requires github.com/pulumi/pulumi/pkg/v3 and sdk/v3 at one version and
// repeats pkg's replace lines, which `go install …@version` refuses to honour.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
