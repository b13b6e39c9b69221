"""A home folder whose NSS database trusts a CA, as chromium on Linux reads it from
$HOME/.pki/nssdb (NSS's certutil, Debian's libnss3-tools): chromium then takes the
floor's page over HTTPS as any browser given the floor's CA would."""

import os
import shutil
import subprocess

CERTUTIL = shutil.which("certutil")


def trusting_home(folder, ca_file):
    """`folder`, made a home whose NSS database trusts the CA to name servers."""
    db = os.path.join(folder, ".pki", "nssdb")
    os.makedirs(db)
    subprocess.run([CERTUTIL, "-d", "sql:" + db, "-N", "--empty-password"], check=True)
    subprocess.run([CERTUTIL, "-d", "sql:" + db, "-A", "-t", "C,,", "-n", "felt floor CA",
                    "-i", ca_file], check=True)
    return folder
