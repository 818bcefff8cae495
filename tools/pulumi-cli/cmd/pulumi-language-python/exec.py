# The exec shim of pulumi-language-python (this repo's host): the host runs
#   python exec.py --monitor ADDR --engine ADDR --project P --stack S --organization O
#       --root_directory DIR --pwd DIR --parallel N --dry_run true|false PROGRAM [ARGS...]
# with the stack's config in PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS, in the program's Python (its
# virtual environment when Pulumi.yaml names one). It configures the `pulumi` package from PyPI
# (pulumi.runtime) and runs PROGRAM (a file, or a folder with __main__.py) inside the root stack.
#
# Credit: this does what Pulumi's own shim does (pulumi/pulumi, sdk/python/cmd/pulumi-language-python-exec,
# Apache-2.0), written anew: the same arguments, the same runtime settings, the thread pool sized to
# 4 x parallel, asyncio's logger silenced, errors reported through the engine and exit code 32 when
# the user has been told (the host then adds nothing), and Pulumi's messages for a missing SDK and a
# missing __main__.py.
import argparse
import asyncio
import inspect
import logging
import os
import runpy
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor

try:
    import pulumi
    import pulumi.runtime
except ImportError:
    # print, not sys.stderr.write: the engine shows what the program prints.
    print(traceback.format_exc(), file=sys.stderr)
    print(
        "\nIt looks like the Pulumi SDK has not been installed. Have you run pip install?\n"
        "If you are running in a virtualenv, you must run pip install -r requirements.txt from inside the virtualenv.",
        file=sys.stderr,
    )
    sys.exit(1)

# The host's "the user has already been shown the error" code: it answers the engine with Bail.
ERROR_ALREADY_REPORTED = 32


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Execute a Pulumi Python program")
    for name, text in [
        ("--project", "the project name"),
        ("--root_directory", "the project's root folder (where Pulumi.yaml is)"),
        ("--stack", "the stack name"),
        ("--organization", "the organization name"),
        ("--parallel", "resource operations run in parallel"),
        ("--dry_run", "true for a preview"),
        ("--pwd", "the folder to run the program in"),
        ("--monitor", "the resource monitor's gRPC address"),
        ("--engine", "the engine's gRPC address"),
        ("--tracing", "a Zipkin-compatible tracing endpoint"),
    ]:
        parser.add_argument(name, help=text)
    parser.add_argument("PROGRAM", help="the program: a .py file, or a folder with __main__.py")
    parser.add_argument("ARGS", nargs="*", help="the program's arguments")
    return parser.parse_args()


def runtime_settings(args: argparse.Namespace) -> "pulumi.runtime.Settings":
    wanted = {
        "monitor": args.monitor,
        "engine": args.engine,
        "project": args.project,
        "stack": args.stack,
        "parallel": int(args.parallel) if args.parallel else None,
        "dry_run": args.dry_run == "true",
        "organization": args.organization,
        "root_directory": args.root_directory,
    }
    # An older pulumi package lacks some settings (organization, root_directory): pass what it knows.
    known = inspect.signature(pulumi.runtime.Settings.__init__).parameters
    return pulumi.runtime.Settings(**{k: v for k, v in wanted.items() if k in known})


def module_path(path: str) -> str:
    base, ext = os.path.splitext(path)
    return os.path.abspath(base if ext else os.path.join(base, "__main__"))


def user_traceback(program: str) -> str:
    """The traceback from the user's program down, without the shim's and runpy's frames."""
    frames = traceback.extract_tb(sys.exc_info()[2])
    for index, frame in enumerate(frames):
        if module_path(frame.filename) == module_path(program):
            return traceback.format_exc(limit=-(len(frames) - index))
    return traceback.format_exc()


def run_program(program: str) -> None:
    try:
        runpy.run_path(program, run_name="__main__")
    except ImportError as error:
        # runpy raises ImportError, from its own frames only, when a folder has no __main__.py.
        files = {"<frozen runpy>" if f.filename == runpy.__file__ else f.filename for f in traceback.extract_tb(error.__traceback__)}
        if files <= {__file__, "<frozen runpy>"}:
            pulumi.log.error(f"unable to find main python program `__main__.py` in `{os.path.abspath(program)}`")
            sys.exit(ERROR_ALREADY_REPORTED)
        raise


def main() -> int:
    args = parse_arguments()
    pulumi.runtime.set_all_config(pulumi.runtime.get_config_env(), pulumi.runtime.get_config_secret_keys_env())
    settings = runtime_settings(args)
    pulumi.runtime.configure(settings)

    sys.argv = [args.PROGRAM] + args.ARGS
    if args.pwd:
        os.chdir(args.pwd)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    executor = ThreadPoolExecutor(max_workers=max(settings.parallel or 1, 1) * 4)
    loop.set_default_executor(executor)
    # A failed resource leaves parts of the program's dataflow graph unresolved on purpose; asyncio
    # would log each never-awaited future. Pulumi silences it the same way.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    exit_code = 1
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: run_program(args.PROGRAM)))
        exit_code = 0
    except pulumi.RunError as error:
        pulumi.log.error(str(error))
    except Exception:  # noqa: BLE001 - every failure of the program is reported to the engine
        pulumi.log.error("Program failed with an unhandled exception:\n" + user_traceback(args.PROGRAM))
        exit_code = ERROR_ALREADY_REPORTED
    finally:
        executor.shutdown(wait=True)
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
