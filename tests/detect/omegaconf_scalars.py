"""How omegaconf 2.3.1 (verl 0.9.1's) types a scalar written as `v: <scalar>`, recorded from the real library.

Each entry: the scalar as written -> (the Python type name of the value, its repr), or ("error", the exception
class) where OmegaConf refuses it. Recorded with `OmegaConf.to_container(OmegaConf.load(stream))["v"]` in the
conformance environment (.ci/conformance-env.sh); tests/conformance/test_yaml_typing_omegaconf.py checks this
table against the live library, tests/detect/test_yaml_typing.py checks the wizard's reader against it.
PyYAML's safe loader differs where the comment says so.
"""

OMEGACONF_TYPES: dict[str, tuple[str, str]] = {
    "2024-01-01": ("str", "'2024-01-01'"),  # PyYAML: datetime.date
    "2001-12-14t21:59:43.10-05:00": ("str", "'2001-12-14t21:59:43.10-05:00'"),  # PyYAML: datetime
    "2001-12-14 21:59:43.10 -5": ("str", "'2001-12-14 21:59:43.10 -5'"),  # PyYAML: datetime
    "1e3": ("float", "1000.0"),  # PyYAML: '1e3'
    "1e-6": ("float", "1e-06"),  # PyYAML: '1e-6'
    "1.0e3": ("float", "1000.0"),  # PyYAML: '1.0e3'
    "+1e-3": ("float", "0.001"),  # PyYAML: '+1e-3'
    "6.0E-7": ("float", "6e-07"),
    "1_000": ("int", "1000"),
    "1_000.5": ("float", "1000.5"),
    "0o17": ("str", "'0o17'"),
    "017": ("int", "15"),
    "0x1F": ("int", "31"),
    "0b101": ("int", "5"),
    "1:30": ("int", "90"),
    "1:30.5": ("float", "90.5"),
    "190:20:30": ("int", "685230"),
    "12:30:00": ("int", "45000"),
    ".5": ("float", "0.5"),
    ".inf": ("float", "inf"),
    "-.Inf": ("float", "-inf"),
    ".NaN": ("float", "nan"),
    "yes": ("bool", "True"),
    "No": ("bool", "False"),
    "on": ("bool", "True"),
    "OFF": ("bool", "False"),
    "y": ("str", "'y'"),
    "n": ("str", "'n'"),
    "true": ("bool", "True"),
    "False": ("bool", "False"),
    "null": ("NoneType", "None"),
    "~": ("NoneType", "None"),
    "Null": ("NoneType", "None"),
    "1.": ("float", "1.0"),
    "-0": ("int", "0"),
    "+12": ("int", "12"),
    "3.14": ("float", "3.14"),
    "1e": ("str", "'1e'"),
    "e3": ("str", "'e3'"),
    "1.2.3": ("str", "'1.2.3'"),
    "0.1.0": ("str", "'0.1.0'"),
    "v1.0": ("str", "'v1.0'"),
    '"1e3"': ("str", "'1e3'"),
    "'2024-01-01'": ("str", "'2024-01-01'"),
    '""': ("str", "''"),
    "=": ("error", "ConstructorError"),
    "!!str 5": ("str", "'5'"),
    "!!float 1": ("float", "1.0"),
    '!!int "7"': ("int", "7"),
    "[1e-6, 2024-01-01]": ("list", "[1e-06, '2024-01-01']"),  # PyYAML: ['1e-6', datetime.date(2024, 1, 1)]
}

# Run by the verl environment's python: prints {scalar: [type name, repr]} for the scalars given as JSON in argv[1].
PROBE = """
import io, json, sys
from omegaconf import OmegaConf
out = {}
for scalar in json.loads(sys.argv[1]):
    try:
        value = OmegaConf.to_container(OmegaConf.load(io.StringIO("v: " + scalar + "\\n")))["v"]
        out[scalar] = [type(value).__name__, repr(value)]
    except Exception as exc:
        out[scalar] = ["error", type(exc).__name__]
print(json.dumps(out))
"""
