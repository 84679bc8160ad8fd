"""Unpacks a cwcloud-api release archive once, under .tmp/upstream/<release>-<checksum>/ (ignored by git)."""
import hashlib
import os
import shutil
import tarfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.path.join(REPOSITORY, '.tmp', 'upstream')


def archive_checksum(path):
    digest = hashlib.sha256()
    with open(path, 'rb') as archive:
        for block in iter(lambda: archive.read(1 << 20), b''):
            digest.update(block)
    return digest.hexdigest()


def unpack_release(platforms, release):
    """Answers the folder holding the release's src/ and LICENCE; unpacks it when not cached yet."""
    archive = os.path.join(platforms, f'cwcloud-api-ce-{release}.tar.xz')
    if not os.path.isfile(archive):
        raise SystemExit(f'{archive} is missing: cannot serve cwcloud-api {release}')
    target = os.path.join(CACHE, f'{release}-{archive_checksum(archive)[:16]}')
    source_dir = os.path.join(target, f'cwcloud-api-ce-{release}')
    if os.path.isfile(os.path.join(target, '.complete')):
        return source_dir
    partial = f'{target}.partial-{os.getpid()}'
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    with tarfile.open(archive, 'r:xz') as tar:
        tar.extractall(partial)
    # The adapters read their choice from this deployment file; without one upstream picks 'log'.
    with open(os.path.join(partial, f'cwcloud-api-ce-{release}', 'cloud_environments.yml'), 'w') as config:
        config.write('adapters: {}\n')
    open(os.path.join(partial, '.complete'), 'w').close()
    try:
        os.rename(partial, target)
    except OSError:  # another process unpacked the same release meanwhile
        shutil.rmtree(partial, ignore_errors=True)
    return source_dir
