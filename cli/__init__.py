"""The `orchard` command: `orchard serve`, `orchard backup PATH`, `orchard score ...` and
`orchard --version`. Each command is a few lines that call the module doing the work."""
import click

from app import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="orchard", message="%(prog)s %(version)s")
def main():
    """Orchard, the score keeper for Apples. Settings come from the environment (README, Settings)."""


@main.command()
def serve():
    """Serve the app on PORT (5000) for every phone on the network, until stopped."""
    from cli import serving

    serving.run()


@main.command()
@click.argument("path")
def backup(path):
    """Copy the database to PATH while the app may be serving (SQLite online backup). PATH may
    be a new file or an earlier copy; anything else there is left alone (exit status 1), and so
    is the live database or a file beside it that the server keeps (exit status 2)."""
    from app import database_path
    from settings import SettingError
    from store.backup import BackupError, LiveFileError, backup as copy

    from pathlib import Path

    try:
        database = database_path()
        if not Path(database).is_file():
            raise click.ClickException(f"Nothing was copied: there is no database at {database} "
                                       "(set ORCHARD_DATABASE to the one the server uses).")
        target = copy(database, path)
    except LiveFileError as error:
        refusal = click.ClickException(str(error))
        refusal.exit_code = 2
        raise refusal from None
    except (BackupError, SettingError) as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"Nothing was copied: {path} cannot be written ({error.strerror}).") from None
    click.echo(f"Backed up {database} to {target}")


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
              add_help_option=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def score(args):
    """Score a pile, a round, a trick or a bid by the rules (orchard score --help)."""
    from scoring.command_line import main as score_main

    raise SystemExit(score_main(list(args)))
