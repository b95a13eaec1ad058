"""What each `fudaya` command does, one module per command; generator/cli.py only declares the options.

Each module's function takes the parsed options, prints what the command says and raises typer.Exit
with its exit code. Helpers shared by the commands live in `common` (their leading underscore: private
to the commands), the options' choices in `options` (imported by the CLI at start, so kept light).
"""
