# A Python program as an Automation API inline program: `python inline.py <program.py> <up|preview|destroy>`.
# The program (what `pulumi convert --language python` wrote, its __main__.py) runs inside the inline
# program's function, so the Python SDK's own language server hosts it and the CLI needs no
# pulumi-language-python. The stack, its project and its configuration come from the environment the
# end-to-end suite sets (HOSTING_E2E_*); the result is one line of JSON on stdout.
import json
import os
import runpy
import sys

import pulumi.automation as auto

program_file, step = sys.argv[1], sys.argv[2]
project = os.environ["HOSTING_E2E_PROJECT"]
stack = auto.create_or_select_stack(
    stack_name=os.environ["HOSTING_E2E_STACK"],
    project_name=project,
    program=lambda: runpy.run_path(program_file, run_name="__main__"),
    opts=auto.LocalWorkspaceOptions(
        work_dir=os.environ["HOSTING_E2E_WORK_DIR"],
        project_settings=auto.ProjectSettings(
            name=project,
            runtime="python",
            backend=auto.ProjectBackend(url=os.environ["PULUMI_BACKEND_URL"]),
        ),
    ),
)
for key, setting in json.loads(os.environ["HOSTING_E2E_CONFIG"]).items():
    stack.set_config(key, auto.ConfigValue(value=setting["value"], secret=setting.get("secret", False)))

if step == "up":
    result = stack.up()
    print(json.dumps({"changes": result.summary.resource_changes, "outputs": {k: v.value for k, v in result.outputs.items()}}))
elif step == "preview":
    result = stack.preview(expect_no_changes=True)
    print(json.dumps({"changes": result.change_summary}))
elif step == "destroy":
    result = stack.destroy()
    print(json.dumps({"changes": result.summary.resource_changes}))
else:
    sys.exit(f"inline.py: the step is up, preview or destroy, not {step!r}")
