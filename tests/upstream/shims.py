"""What the harness puts in place of upstream's infrastructure, before upstream's main.py is imported.

Each replacement stands for something this machine does not have (PostgreSQL, an OpenTelemetry
collector, PyPI-only packages, the network); everything a client can observe stays upstream's.
"""
import contextlib
import contextvars
import importlib.abc
import importlib.machinery
import inspect
import secrets
import sys
import types
import uuid
from typing import Annotated, get_args, get_origin

_database = {}
_sent_mail = []


def install(database_path):
    _read_annotated_dependencies()
    _provide_unused_packages()
    sys.modules['asgi_correlation_id'] = _correlation_id_module()
    sys.modules['prometheus_fastapi_instrumentator'] = _instrumentator_module()
    sys.modules['utils.observability.otel'] = _otel_module()
    sys.modules['utils.observability.metrics'] = _module('utils.observability.metrics', metrics=lambda: None)
    sys.modules['utils.observability.monitor'] = _module('utils.observability.monitor', monitors=lambda: None)
    sys.modules['database.postgres_db'] = _database_module(database_path)
    sys.modules['restful_resources'] = _module('restful_resources', import_resources=_import_sitebeam_resources)
    _keep_tracker_offline()
    _record_sent_mail()


def _module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def _read_annotated_dependencies():
    """FastAPI 0.92 (Debian) predates `Annotated[T, Depends(f)]` (0.95, upstream's pin): read it as `T = Depends(f)`."""
    from fastapi import params
    from fastapi.dependencies import utils

    original = utils.get_typed_signature

    def get_typed_signature(call):
        signature = original(call)
        parameters = []
        for parameter in signature.parameters.values():
            if get_origin(parameter.annotation) is Annotated:
                declared_type, *metadata = get_args(parameter.annotation)
                markers = [item for item in metadata if isinstance(item, (params.Depends, params.Param, params.Body))]
                if markers and parameter.default is inspect.Parameter.empty:
                    parameter = parameter.replace(annotation=declared_type, default=markers[-1])
            parameters.append(parameter)
        # A dependency may now come before a body parameter without a default, as it may in 0.95.
        return inspect.Signature(parameters, __validate_parameters__=False)

    utils.get_typed_signature = get_typed_signature


class _AnythingModule(types.ModuleType):
    """Stands for a PyPI-only package that upstream imports at module level but no Sitebeam route calls."""

    __path__ = []

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return type(name, (), {'__init__': lambda self, *args, **kwargs: None})


class _UnusedPackages(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    names = ('minio', 'fastapi_utils', 'redis', 'nats', 'psutil', 'opentelemetry')

    def find_spec(self, fullname, path, target=None):
        if fullname.split('.')[0] in self.names:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _AnythingModule(spec.name)

    def exec_module(self, module):
        pass


def _provide_unused_packages():
    # Last in the search path: an installed package of the same name always wins.
    sys.meta_path.append(_UnusedPackages())


def _correlation_id_module():
    """asgi-correlation-id (PyPI only): same header, same generator, same context variable."""
    correlation_id = contextvars.ContextVar('correlation_id', default=None)

    class CorrelationIdMiddleware:
        def __init__(self, app, header_name='X-Request-ID', generator=lambda: uuid.uuid4().hex, **_):
            self.app, self.header_name, self.generator = app, header_name, generator

        async def __call__(self, scope, receive, send):
            if scope['type'] != 'http':
                return await self.app(scope, receive, send)
            token = correlation_id.set(self.generator())
            header = self.header_name.lower().encode()

            async def send_with_header(message):
                if message['type'] == 'http.response.start':
                    headers = [(name, value) for name, value in message.get('headers', []) if name.lower() != header]
                    message['headers'] = headers + [(header, correlation_id.get().encode())]
                await send(message)

            try:
                await self.app(scope, receive, send_with_header)
            finally:
                correlation_id.reset(token)

    return _module('asgi_correlation_id', correlation_id=correlation_id, CorrelationIdMiddleware=CorrelationIdMiddleware)


def _instrumentator_module():
    class Instrumentator:
        def instrument(self, *_, **__):
            return self

        def expose(self, *_, **__):
            return self

    return _module('prometheus_fastapi_instrumentator', Instrumentator=Instrumentator)


def _otel_module():
    class Instrument:
        def add(self, *_, **__):
            pass

        def set(self, *_, **__):
            pass

    class Meter:
        def __getattr__(self, name):
            return lambda *_, **__: Instrument()

    class Tracer:
        def start_as_current_span(self, *_, **__):
            return contextlib.nullcontext()

    nothing = lambda *_, **__: None  # noqa: E731
    return _module('utils.observability.otel', get_otel_tracer=Tracer, get_otel_meter=Meter,
                   init_otel_tracer=nothing, init_otel_metrics=nothing, init_otel_logger=nothing)


def _database_module(database_path):
    """PostgreSQL becomes a SQLite file holding upstream's own tables (JSONB stored as JSON)."""
    from sqlalchemy import MetaData, create_engine
    from sqlalchemy.dialects.postgresql import JSONB
    from sqlalchemy.ext.compiler import compiles
    from sqlalchemy.orm import declarative_base, sessionmaker

    class AccountTables(MetaData):
        """Upstream creates its tables with SQL migrations; here only the two the guards read exist."""

        def create_all(self, bind=None, tables=None, checkfirst=True):
            accounts = [self.tables[name] for name in ('user', 'api_keys') if name in self.tables]
            super().create_all(bind=bind, tables=accounts, checkfirst=checkfirst)

    compiles(JSONB, 'sqlite')(lambda element, compiler, **_: 'JSON')
    engine = create_engine(f'sqlite:///{database_path}', connect_args={'check_same_thread': False})
    session_local = sessionmaker(autocommit=False, autoflush=False, bind=engine)

    def get_db():
        db = session_local()
        try:
            yield db
        finally:
            db.close()

    _database.update(session=session_local, engine=engine, base=declarative_base(metadata=AccountTables()))
    return _module('database.postgres_db', dbEngine=engine, SessionLocal=session_local,
                   Base=_database['base'], get_db=get_db)


def _import_sitebeam_resources(app):
    """upstream's restful_resources.import_resources, limited to the routers Sitebeam calls (same prefixes)."""
    import api_root
    from routes.ai import api_model, api_prompt
    from routes.email import api_email
    from routes.tracker import api_tracker

    app.include_router(api_root.router, tags=['Informations and Health checks'], prefix='/v1/health')
    app.include_router(api_email.router, tags=['Email'], prefix='/v1/email')
    app.include_router(api_model.router, tags=['AI'], prefix='/v1/ai')
    app.include_router(api_prompt.router, tags=['AI'], prefix='/v1/ai')
    app.include_router(api_tracker.router, tags=['Observability'], prefix='/v1/tracker')


def _keep_tracker_offline():
    """The tracker asks ipapi.co and ipinfo.io about the visitor; here it answers as when both are unreachable."""
    from utils.observability import tracker

    tracker.get_infos_from_ip = lambda ip: {'status': 'ko', 'ip': ip, 'reason': 'no network in the Sitebeam test harness'}


def _record_sent_mail():
    """The 'log' adapter (upstream's default, no SMTP) only logs; the harness also keeps each mail for tests."""
    from utils.mail import EMAIL_ADAPTER as LogAdapter  # the adapter upstream chose: log

    send = LogAdapter.send

    def send_and_record(self, email):
        _sent_mail.append({key: value for key, value in email.items() if value is not None})
        return send(self, email)

    LogAdapter.send = send_and_record


def expose_sent_mail(app):
    """GET /__harness/mail answers what the 'log' adapter was asked to send (harness only, not upstream's)."""
    app.add_api_route('/__harness/mail', lambda: {'mail': _sent_mail}, methods=['GET'], include_in_schema=False)


def create_account(email, emailapi, cwaiapi, confirmed):
    """A user with an API key, through upstream's own entities; answers the key's secret (X-Auth-Token)."""
    from entities.Apikeys import ApiKeys
    from entities.User import User

    _database['base'].metadata.create_all(bind=_database['engine'])
    db = _database['session']()
    try:
        user = User(email=email, password='', confirmed=confirmed, is_admin=False,
                    enabled_features={'emailapi': emailapi, 'cwaiapi': cwaiapi})
        user.save(db)
        secret = secrets.token_hex(24)
        ApiKeys(name='sitebeam-tests', access_key=secrets.token_hex(12), secret_key=secret, user_id=user.id).save(db)
        return secret
    finally:
        db.close()
