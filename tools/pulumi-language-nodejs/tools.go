//go:build tools

// pulumi-language-nodejs, the Node.js language host, as a Go module (make pulumi-cli). Its go.sum is
// written by the first build that can reach the module: the Go module proxy this project's machines
// use does not serve it (403), so there the host comes from PATH or the official release, or not at all.
package tools

import _ "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
