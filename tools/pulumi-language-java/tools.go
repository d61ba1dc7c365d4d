//go:build tools

// pulumi-language-java, the Java language host, as a Go module (make pulumi-cli): it runs the Java
// programs of the end-to-end suite (with Maven and com.pulumi:pulumi from Maven Central) and writes
// sdk/java (`pulumi package gen-sdk --language java`, make sdk). pulumi-java's pkg v1.22.0 is the newest
// version the Go module proxy of this project's machines serves; it is built against the pkg/sdk
// version it names (v3.228.0), as pulumi-yaml is: it does not compile against later ones.
package tools

import _ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
