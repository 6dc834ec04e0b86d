#!/usr/bin/env bash
# Regenerates src/main/resources/dev/lockwarden/agent/preload.txt (the classes Preloader loads ahead of the main
# thread) from -Xlog:class+load of a one-class app under the freshly packaged agent. Run after a dependency upgrade:
#   mvn -B -q -pl lock-agent -am package -DskipTests && lock-agent/preload-classes.sh && mvn -B -q -pl lock-agent -am package -DskipTests
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/lock-agent.jar"
out="$here/src/main/resources/dev/lockwarden/agent/preload.txt"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/app"
printf 'package app;\npublic class Main {\n  public String value(String k) { return k; }\n  public static void main(String[] a) { }\n}\n' > "$tmp/src/app/Main.java"
javac -d "$tmp/cls" "$tmp/src/app/Main.java"
printf 'redis = redis://127.0.0.1:1\napp.Main#value(java.lang.String) key="gen:{0}"\n' > "$tmp/one.conf"
# without the current list, so the log shows the main thread's own order
timeout 60s java -Dlockwarden.agent.preload=false -Xlog:class+load:file="$tmp/cl.txt" -javaagent:"$jar"=config="$tmp/one.conf" -cp "$tmp/cls" app.Main >/dev/null 2>&1
{
  echo "# Classes the agent's start-up path loads, in order (premain, config check, pre-check, install, first weave)."
  echo "# Preloader loads and links them, without initialising, on a daemon thread ahead of the main thread. Regenerate"
  echo "# after a dependency upgrade (ShadedJarIT fails when a name is gone): lock-agent/preload-classes.sh"
  echo "# Only the bundled libraries (dev.lockwarden.agent.shaded.*): the agent's own classes reference the bootstrap"
  echo "# bridge, which must not be loaded (by verification) from the agent jar before it is injected into the boot loader."
  awk '/dev.lockwarden.agent.LockAgent /{p=1} p{print} /app.Main /{exit}' "$tmp/cl.txt" | grep "source: file:$jar" \
    | awk '{print $2}' | grep '^dev\.lockwarden\.agent\.shaded\.' | grep -v '\$\$Lambda'
} > "$tmp/list.txt"
# only classes the jar holds (Byte Buddy defines some at run time, e.g. Invoker$Dispatcher)
unzip -Z1 "$jar" '*.class' | sed 's/\.class$//; s#/#.#g' | sort > "$tmp/jar.txt"
while IFS= read -r l; do
  if [[ "$l" == \#* ]] || grep -qxF "$l" "$tmp/jar.txt"; then echo "$l"; fi
done < "$tmp/list.txt" > "$out"
echo "$(grep -vc '^#' "$out") classes -> $out"
