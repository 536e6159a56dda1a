from catalog.cli.main import cli

cli(prog_name="wythoff")
