"""GitHub's documented facts about its REST API: constants, not settings (nobody tunes them).

Each was a ``HARVEST_GITHUB_*`` setting until issue 31; the old names are still read for one
release (:data:`harvest.config.settings_model.RETIRED`).
"""

from __future__ import annotations

#: Sent as ``X-GitHub-Api-Version``: the REST API version the parsers were written against.
API_VERSION = "2022-11-28"
#: Results per search page: GitHub's maximum, the fewest requests per result.
PER_PAGE = 100
#: Results GitHub serves per search (documented: 1000). A lower cap seen in Link rel="last" or a
#: 422 "Only the first N search results" wins during a run.
RESULT_CAP = 1000
#: GitHub rejects longer query text (qualifiers and operators excluded); checked before sending.
MAX_QUERY_LENGTH = 256
#: GitHub rejects more AND/OR/NOT operators in one query; checked before sending.
MAX_OPERATORS = 5
#: Earliest creation date assumed when cutting an open ``created:`` range (GitHub opened in
#: October 2007); the first slice stays open-ended, so nothing older is lost.
CREATED_FLOOR = "2007-10-01"
