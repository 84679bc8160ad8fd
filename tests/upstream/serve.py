#!/usr/bin/python3
"""Serves the real service (comworkio/cwcloud-api, MIT) from a release archive on 127.0.0.1.

Upstream's main.py runs unmodified: its routes, guards, pydantic schemas, exception handler and
CORS rule. Only what needs a database server, OpenTelemetry, asgi-correlation-id or the network is
replaced through sys.modules before main.py is imported (README.md says what and why).

Prints one line when it accepts connections:
  Upstream cwcloud-api 3.16.15 listening on http://127.0.0.1:PORT token=… token_without_ai=… token_unconfirmed=… cors=on
"""
import argparse
import os
import socket
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from release import unpack_release  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--release', required=True, help='3.16.15 or 3.15.24')
    parser.add_argument('--platforms', default=os.environ.get('SITEBEAM_PLATFORMS'),
                        help='folder holding cwcloud-api-ce-<release>.tar.xz (default: $SITEBEAM_PLATFORMS)')
    parser.add_argument('--cors', choices=['on', 'off'], default='on',
                        help="on sets upstream's own ENABLE_CORS_ALLOW_ALL; off leaves CORS out as in production")
    parser.add_argument('--port', type=int, default=0)
    return parser.parse_args()


def configure_environment(work_dir, cors):
    # APP_ENV defaults to 'local' upstream, which turns CORS on: a deployed instance says otherwise.
    os.environ['APP_ENV'] = 'prod'
    os.environ.pop('ENABLE_CORS_ALLOW_ALL', None)
    if cors == 'on':
        os.environ['ENABLE_CORS_ALLOW_ALL'] = 'true'
    # Releases that still implement the AI routes serve them only with this flag.
    os.environ['CWAI_ENABLE'] = 'true'
    os.environ['TRACKER_IMAGE_PATH'] = os.path.join(work_dir, 'tracker_image.png')
    os.environ.setdefault('LOG_LEVEL', 'WARN')


def main():
    arguments = parse_arguments()
    if not arguments.platforms:
        sys.exit('SITEBEAM_PLATFORMS is not set: no release archive of cwcloud-api to serve')
    source_dir = unpack_release(arguments.platforms, arguments.release)
    with tempfile.TemporaryDirectory(prefix='sitebeam-upstream-') as work_dir:
        serve(arguments, source_dir, work_dir)


def serve(arguments, source_dir, work_dir):
    configure_environment(work_dir, arguments.cors)
    sys.path.insert(0, os.path.join(source_dir, 'src'))

    import shims
    shims.install(database_path=os.path.join(work_dir, 'cwcloud.sqlite'))
    import main as upstream_main  # noqa: E402  upstream's own main.py
    app = upstream_main.app
    tokens = {
        'token': shims.create_account('owner@sitebeam-ci.dev', emailapi=True, cwaiapi=True, confirmed=True),
        'token_without_ai': shims.create_account('no-ai@sitebeam-ci.dev', emailapi=True, cwaiapi=False, confirmed=True),
        'token_unconfirmed': shims.create_account('unconfirmed@sitebeam-ci.dev', emailapi=True, cwaiapi=True, confirmed=False),
    }
    shims.expose_sent_mail(app)

    import uvicorn
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(('127.0.0.1', arguments.port))
    listener.listen(128)
    port = listener.getsockname()[1]
    credentials = ' '.join(f'{name}={value}' for name, value in tokens.items())
    print(f'Upstream cwcloud-api {arguments.release} listening on http://127.0.0.1:{port} {credentials} cors={arguments.cors}',
          flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', access_log=False))
    server.run(sockets=[listener])


if __name__ == '__main__':
    main()
