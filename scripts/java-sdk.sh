#!/usr/bin/env bash
# The Java SDK (sdk/java, which Pulumi's generator lays out for Gradle) built with Maven, on machines without
# Gradle (this project's): its sources, the resources its build.gradle's genPulumiResources writes
# (version.txt and plugin.json, which tell the engine the plugin's version and where it is published), and
# the dependencies its build.gradle names, in a pom.xml made from them under dist/sdk-java. The release
# publishes with the generated build.gradle (docs/releasing.md); this is how `make release-dry-run` checks
# it (`mvn verify`) and how the end-to-end suite gets it (`mvn install` into the suite's Maven repository).
# Maven's repository is kept outside the repository: ${XDG_CACHE_HOME:-~/.cache}/pulumi-hosting/maven.
#
#   scripts/java-sdk.sh verify|install
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
goal=${1:?"usage: scripts/java-sdk.sh verify|install"}
sdk="$root/sdk/java"
out="$root/dist/sdk-java"
repository="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting/maven"

if ! command -v mvn >/dev/null 2>&1; then
  echo "scripts/java-sdk.sh: Maven (mvn) is not installed: install it and a JDK 11 or newer (apt-get install maven default-jdk-headless)" >&2
  exit 1
fi

gradle_value() { sed -n "$1" "$sdk/build.gradle" | head -n 1; }
group=$(gradle_value 's/^group = "\(.*\)"$/\1/p')
artifact=$(gradle_value 's/^ *artifactId = "\(.*\)"$/\1/p')
version=$(gradle_value 's/^ *? "\(.*\)"$/\1/p')
name=$(gradle_value 's/^ *name "\(.*\)"$/\1/p')
server=$(gradle_value 's/^ *server "\(.*\)"$/\1/p')
project=$(sed -n 's/^rootProject.name = "\(.*\)"$/\1/p' "$sdk/settings.gradle")

rm -rf "$out" && mkdir -p "$out/resources/${project//.//}"
printf '%s' "$version" >"$out/resources/${project//.//}/version.txt"
printf '{\n    "resource": true,\n    "name": "%s",\n    "server": "%s",\n    "version": "%s"\n}' \
  "$name" "$server" "$version" >"$out/resources/${project//.//}/plugin.json"

dependencies=$(sed -n 's/^ *implementation("\([^:]*\):\([^:]*\):\([^"]*\)")$/<dependency><groupId>\1<\/groupId><artifactId>\2<\/artifactId><version>\3<\/version><\/dependency>/p' "$sdk/build.gradle")
cat >"$out/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>$group</groupId>
  <artifactId>$artifact</artifactId>
  <version>$version</version>
  <packaging>jar</packaging>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>$dependencies</dependencies>
  <build>
    <sourceDirectory>$sdk/src/main/java</sourceDirectory>
    <resources><resource><directory>$out/resources</directory></resource></resources>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-source-plugin</artifactId>
        <version>3.3.1</version>
        <executions><execution><id>sources</id><goals><goal>jar-no-fork</goal></goals></execution></executions>
      </plugin>
    </plugins>
  </build>
</project>
POM
mvn -q -B -Dmaven.repo.local="$repository" -f "$out/pom.xml" "$goal"
echo "scripts/java-sdk.sh: $group:$artifact:$version, mvn $goal: $(ls "$out"/target/*.jar | xargs -n 1 basename | tr '\n' ' ')"
