#!/usr/bin/env bash
# After a release is published, the check a user's first program makes: the SDK of LANGUAGE installed
# from its real registry (npm, PyPI, the Go module proxy, Maven Central; YAML needs none), the plugin downloaded by
# Pulumi itself from the GitHub release the schema's pluginDownloadURL names (into a fresh
# PULUMI_HOME), then tools/verify/lifecycle.sh's lifecycle against a running server. A registry may
# take minutes to serve a new version: each install is tried for up to 5 minutes.
#
#   ASSET_DELIVERY_BASE_URL=... ASSET_DELIVERY_API_KEY=... bash tools/verify/published.sh typescript|python|go|java|yaml VERSION
#
# The release workflow's `after-publish` job runs it on Linux, macOS and Windows (Git Bash), as
# pulumi-random's verify-release does. It cannot run here (nothing is published from here): the
# release rehearsal (test/release/release.test.ts) makes the same installs from local registries.
set -euo pipefail
# shellcheck source=tools/verify/lifecycle.sh
source "$(dirname "${BASH_SOURCE[0]}")/lifecycle.sh"

[ $# -eq 2 ] || verify_die "usage: bash tools/verify/published.sh typescript|python|go|java|yaml VERSION"
language="$1"
version="$2"
GO_MODULE="github.com/asset-delivery/asset-delivery-as-code/sdks/go"
PLUGIN_DOWNLOAD_URL="github://api.github.com/asset-delivery/asset-delivery-as-code"
subdomain="published-${language}-$(uname -s | tr '[:upper:]' '[:lower:]')-$(date +%s)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
PULUMI_HOME="$(native "${work}/pulumi-home")"
export PULUMI_HOME PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://~}"
# No `pulumi-resource-assetdelivery` on PATH (an npm install's node_modules/.bin) may stand in.
export PULUMI_IGNORE_AMBIENT_PLUGINS=true PULUMI_CONFIG_PASSPHRASE=verify PULUMI_SKIP_UPDATE_CHECK=true
mkdir -p "${work}/project"
cd "${work}/project"

retry() {
  local attempt
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    "$@" && return 0
    verify_log "not yet served (attempt ${attempt}): $*"
    sleep 30
  done
  verify_die "still failing after 10 attempts: $*"
}

project() { # RUNTIME: Pulumi.yaml's runtime line(s)
  printf 'name: verify-published\n%s\nconfig:\n  ttl:\n    type: integer\n' "$1" >Pulumi.yaml
}

case "$language" in
  typescript)
    project "runtime: nodejs"
    printf '{ "name": "verify-published", "private": true, "main": "index.ts" }\n' >package.json
    retry npm install --no-audit --no-fund "@asset-delivery/pulumi@${version}" "@pulumi/pulumi@^3" typescript @types/node
    cat >index.ts <<TS
import * as pulumi from "@pulumi/pulumi";
import * as assetdelivery from "@asset-delivery/pulumi";

const site = new assetdelivery.Source("site", {
    name: "Published TypeScript",
    deployment: { type: "webproxy", serviceSubdomains: ["${subdomain}"], cacheTtlValue: new pulumi.Config().requireNumber("ttl") },
});
export const id = site.id;
TS
    ;;
  python)
    project "runtime:
  name: python
  options:
    virtualenv: venv"
    python -m venv venv
    pip="venv/bin/pip"
    [ -x "$pip" ] || pip="venv/Scripts/pip.exe"
    retry "$pip" install --disable-pip-version-check "pulumi_assetdelivery==${version}"
    cat >__main__.py <<PY
import pulumi
import pulumi_assetdelivery as assetdelivery

site = assetdelivery.Source(
    "site",
    name="Published Python",
    deployment=assetdelivery.WebproxyDeploymentArgs(
        type="webproxy",
        service_subdomains=["${subdomain}"],
        cache_ttl_value=pulumi.Config().require_int("ttl"),
    ),
)
pulumi.export("id", site.id)
PY
    ;;
  go)
    project "runtime: go"
    go mod init example.com/verify
    retry go get "${GO_MODULE}@v${version}"
    cat >main.go <<GO
package main

import (
	"github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		site, err := assetdelivery.NewSource(ctx, "site", &assetdelivery.SourceArgs{
			Name: pulumi.String("Published Go"),
			Deployment: assetdelivery.WebproxyDeploymentArgs{
				Type:              pulumi.String("webproxy"),
				ServiceSubdomains: pulumi.StringArray{pulumi.String("${subdomain}")},
				CacheTtlValue:     pulumi.Int(config.RequireInt(ctx, "ttl")),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("id", site.ID())
		return nil
	})
}
GO
    go mod tidy
    ;;
  java)
    # A Maven program as Pulumi's Java host runs it (`mvn compile exec:java`, mainClass a property).
    project "runtime: java"
    mkdir -p src/main/java/myproject
    cat >pom.xml <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>verify-published</artifactId>
  <version>1.0.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <mainClass>myproject.App</mainClass>
    <mainArgs/>
  </properties>
  <dependencies>
    <dependency>
      <groupId>io.github.asset-delivery</groupId>
      <artifactId>assetdelivery</artifactId>
      <version>${version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.6.4</version>
        <configuration>
          <mainClass>\${mainClass}</mainClass>
          <commandlineArgs>\${mainArgs}</commandlineArgs>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
POM
    cat >src/main/java/myproject/App.java <<JAVA
package myproject;

import com.github.assetdelivery.assetdelivery.Source;
import com.github.assetdelivery.assetdelivery.SourceArgs;
import com.github.assetdelivery.assetdelivery.inputs.WebproxyDeploymentArgs;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var site = new Source("site", SourceArgs.builder()
                .name("Published Java")
                .deployment(WebproxyDeploymentArgs.builder()
                    .type("webproxy")
                    .serviceSubdomains("${subdomain}")
                    .cacheTtlValue(ctx.config().requireInteger("ttl"))
                    .build())
                .build());
            ctx.export("id", site.id());
        });
    }
}
JAVA
    retry mvn -q compile
    ;;
  yaml)
    project "runtime: yaml"
    cat >>Pulumi.yaml <<YAML
resources:
  site:
    type: assetdelivery:index:Source
    properties:
      name: Published YAML
      deployment:
        type: webproxy
        serviceSubdomains: ["${subdomain}"]
        cacheTtlValue: \${ttl}
    options:
      version: ${version}
      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}
outputs:
  id: \${site.id}
YAML
    ;;
  *) verify_die "unknown language '${language}' (typescript, python, go, java, yaml)" ;;
esac
run_lifecycle "$language" "$version"
