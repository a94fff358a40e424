"""Gatsby 5 with the layout of its official blog starter (``gatsby-starter-blog``).

The starter is a repository template, not an npm package: its files are written out here, on
the npm packages it depends on (gatsby-source-filesystem, gatsby-transformer-remark with
gatsby-remark-prismjs, -images, -responsive-iframe and -copy-linked-files, gatsby-plugin-image,
-sharp, -manifest and -feed), plus gatsby-plugin-sitemap. What the starter has: posts in
``content/blog/<slug>/index.md`` at ``/<slug>/`` (``createFilePath``), the home page listing
every post with the Bio (avatar, "Written by <author>"), the post template (``<article
class="blog-post" itemscope itemtype="http://schema.org/Article">``, the ``<h1
itemprop="headline">`` and the date as text under it, the body in ``<section
itemprop="articleBody">``, the Bio in the article's footer, previous/next links in
``<nav class="blog-post-nav">``), the Seo component (``<title>Post | Site</title>``,
description, og and twitter tags), the RSS feed at ``/rss.xml`` and a 404 page. Added by
Gatsby's docs recipes: "Adding Pagination" (``/blog/``, ``/blog/2/`` ..., 5 a page) and
"Creating Tags Pages for Blog Posts" (``/tags/`` and ``/tags/<kebab-case tag>/``), the same
recipe for the posts' category (``/categories/``, ``/categories/<category>/``), the post's tags
and category linked under its date; a ``draft: true`` front matter filtered out of every query
(the usual pattern: the starter has no drafts) and an About page in ``src/pages/about.js``.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

from corpus import ABOUT, POSTS
from write_sources import _description, _fresh, _write

SITE_URL = "https://gatsby-blog.heldout.example"

GATSBY_CONFIG = """/**
 * Gatsby's configuration, as the blog starter writes it (siteMetadata, the Markdown sources,
 * remark plugins, images, the RSS feed, the manifest) plus the sitemap plugin.
 */
module.exports = {
  siteMetadata: {
    title: `Small Lessons`,
    author: {
      name: `Ana Lima`,
      summary: `who writes short programming lessons from Lisbon.`,
    },
    description: `Short programming lessons.`,
    siteUrl: `SITE_URL`,
    social: {
      twitter: `analima`,
    },
  },
  trailingSlash: `always`,
  plugins: [
    `gatsby-plugin-image`,
    {
      resolve: `gatsby-source-filesystem`,
      options: {
        path: `${__dirname}/content/blog`,
        name: `blog`,
      },
    },
    {
      resolve: `gatsby-source-filesystem`,
      options: {
        name: `images`,
        path: `${__dirname}/src/images`,
      },
    },
    {
      resolve: `gatsby-transformer-remark`,
      options: {
        plugins: [
          {
            resolve: `gatsby-remark-images`,
            options: {
              maxWidth: 630,
            },
          },
          {
            resolve: `gatsby-remark-responsive-iframe`,
            options: {
              wrapperStyle: `margin-bottom: 1.0725rem`,
            },
          },
          `gatsby-remark-prismjs`,
          `gatsby-remark-copy-linked-files`,
        ],
      },
    },
    `gatsby-transformer-sharp`,
    `gatsby-plugin-sharp`,
    {
      resolve: `gatsby-plugin-feed`,
      options: {
        query: `
          {
            site {
              siteMetadata {
                title
                description
                siteUrl
                site_url: siteUrl
              }
            }
          }
        `,
        feeds: [
          {
            serialize: ({ query: { site, allMarkdownRemark } }) => {
              return allMarkdownRemark.nodes.map(node => {
                return Object.assign({}, node.frontmatter, {
                  description: node.excerpt,
                  date: node.frontmatter.date,
                  url: site.siteMetadata.siteUrl + node.fields.slug,
                  guid: site.siteMetadata.siteUrl + node.fields.slug,
                  custom_elements: [{ "content:encoded": node.html }],
                })
              })
            },
            query: `{
              allMarkdownRemark(
                filter: { frontmatter: { draft: { ne: true } } }
                sort: { frontmatter: { date: DESC } }
              ) {
                nodes {
                  excerpt
                  html
                  fields {
                    slug
                  }
                  frontmatter {
                    title
                    date
                  }
                }
              }
            }`,
            output: "/rss.xml",
            title: "Small Lessons RSS Feed",
          },
        ],
      },
    },
    {
      resolve: `gatsby-plugin-sitemap`,
    },
    {
      resolve: `gatsby-plugin-manifest`,
      options: {
        name: `Small Lessons`,
        short_name: `Lessons`,
        start_url: `/`,
        background_color: `#ffffff`,
        display: `minimal-ui`,
        icon: `src/images/gatsby-icon.png`,
      },
    },
  ],
}
""".replace("SITE_URL", SITE_URL)

GATSBY_NODE = """/**
 * The starter's gatsby-node.js (one page per post, previous/next by date, the slug field) with
 * Gatsby's docs recipes "Adding Pagination" (/blog/, /blog/2/ ...) and "Creating Tags Pages for
 * Blog Posts" (/tags/<tag>/), the latter also for the posts' category. Drafts are left out.
 */
const path = require(`path`)
const kebabCase = require(`lodash/kebabCase`)
const { createFilePath } = require(`gatsby-source-filesystem`)

const blogPost = path.resolve(`./src/templates/blog-post.js`)
const blogList = path.resolve(`./src/templates/blog-list.js`)
const tagTemplate = path.resolve(`./src/templates/tags.js`)
const categoryTemplate = path.resolve(`./src/templates/category.js`)
const postsPerPage = 5

exports.createPages = async ({ graphql, actions, reporter }) => {
  const { createPage } = actions

  const result = await graphql(`
    {
      allMarkdownRemark(
        filter: { frontmatter: { draft: { ne: true } } }
        sort: { frontmatter: { date: ASC } }
        limit: 1000
      ) {
        nodes {
          id
          fields {
            slug
          }
        }
      }
      tagsGroup: allMarkdownRemark(
        filter: { frontmatter: { draft: { ne: true } } }
        limit: 2000
      ) {
        group(field: { frontmatter: { tags: SELECT } }) {
          fieldValue
        }
      }
      categoriesGroup: allMarkdownRemark(
        filter: { frontmatter: { draft: { ne: true } } }
        limit: 2000
      ) {
        group(field: { frontmatter: { category: SELECT } }) {
          fieldValue
        }
      }
    }
  `)

  if (result.errors) {
    reporter.panicOnBuild(`There was an error loading your blog posts`, result.errors)
    return
  }

  const posts = result.data.allMarkdownRemark.nodes

  posts.forEach((post, index) => {
    const previousPostId = index === 0 ? null : posts[index - 1].id
    const nextPostId = index === posts.length - 1 ? null : posts[index + 1].id

    createPage({
      path: post.fields.slug,
      component: blogPost,
      context: {
        id: post.id,
        previousPostId,
        nextPostId,
      },
    })
  })

  const numPages = Math.ceil(posts.length / postsPerPage)
  Array.from({ length: numPages }).forEach((_, i) => {
    createPage({
      path: i === 0 ? `/blog/` : `/blog/${i + 1}/`,
      component: blogList,
      context: {
        limit: postsPerPage,
        skip: i * postsPerPage,
        numPages,
        currentPage: i + 1,
      },
    })
  })

  result.data.tagsGroup.group.forEach(tag => {
    createPage({
      path: `/tags/${kebabCase(tag.fieldValue)}/`,
      component: tagTemplate,
      context: {
        tag: tag.fieldValue,
      },
    })
  })

  result.data.categoriesGroup.group.forEach(category => {
    createPage({
      path: `/categories/${kebabCase(category.fieldValue)}/`,
      component: categoryTemplate,
      context: {
        category: category.fieldValue,
      },
    })
  })
}

exports.onCreateNode = ({ node, actions, getNode }) => {
  const { createNodeField } = actions

  if (node.internal.type === `MarkdownRemark`) {
    const value = createFilePath({ node, getNode })

    createNodeField({
      name: `slug`,
      node,
      value,
    })
  }
}

exports.createSchemaCustomization = ({ actions }) => {
  const { createTypes } = actions

  createTypes(`
    type SiteSiteMetadata {
      author: Author
      siteUrl: String
      social: Social
    }

    type Author {
      name: String
      summary: String
    }

    type Social {
      twitter: String
    }

    type MarkdownRemark implements Node {
      frontmatter: Frontmatter
      fields: Fields
    }

    type Frontmatter {
      title: String
      description: String
      date: Date @dateformat
      tags: [String]
      category: String
      draft: Boolean
    }

    type Fields {
      slug: String
    }
  `)
}
"""

GATSBY_BROWSER = """// custom typefaces are left out (no font files in this build)

// normalize CSS across browsers
import "./src/normalize.css"
// custom CSS styles
import "./src/style.css"

// Highlighting for code blocks
import "prismjs/themes/prism.css"
"""

GATSBY_SSR = """/**
 * Gatsby's Server Rendering APIs: the document's language.
 */
exports.onRenderBody = ({ setHtmlAttributes }) => {
  setHtmlAttributes({ lang: `en` })
}
"""

LAYOUT = """import * as React from "react"
import { Link } from "gatsby"

const Layout = ({ location, title, children }) => {
  const rootPath = `${__PATH_PREFIX__}/`
  const isRootPath = location.pathname === rootPath
  let header

  if (isRootPath) {
    header = (
      <h1 className="main-heading">
        <Link to="/">{title}</Link>
      </h1>
    )
  } else {
    header = (
      <Link className="header-link-home" to="/">
        {title}
      </Link>
    )
  }

  return (
    <div className="global-wrapper" data-is-root-path={isRootPath}>
      <header className="global-header">{header}</header>
      <main>{children}</main>
      <footer>
        © {new Date().getFullYear()}, Built with
        {` `}
        <a href="https://www.gatsbyjs.com">Gatsby</a>
      </footer>
    </div>
  )
}

export default Layout
"""

BIO = """/**
 * Bio component: the author's picture, name and summary (siteMetadata).
 */
import * as React from "react"
import { useStaticQuery, graphql } from "gatsby"
import { StaticImage } from "gatsby-plugin-image"

const Bio = () => {
  const data = useStaticQuery(graphql`
    query BioQuery {
      site {
        siteMetadata {
          author {
            name
            summary
          }
          social {
            twitter
          }
        }
      }
    }
  `)

  const author = data.site.siteMetadata?.author
  const social = data.site.siteMetadata?.social

  return (
    <div className="bio">
      <StaticImage
        className="bio-avatar"
        layout="fixed"
        formats={["auto", "webp", "avif"]}
        src="../images/profile-pic.png"
        width={50}
        height={50}
        quality={95}
        alt="Profile picture"
      />
      {author?.name && (
        <p>
          Written by <strong>{author.name}</strong> {author?.summary || null}
          {` `}
          <a href={`https://twitter.com/${social?.twitter || ``}`}>
            You should follow them on Twitter
          </a>
        </p>
      )}
    </div>
  )
}

export default Bio
"""

SEO = """/**
 * SEO component: the page's title, description and social tags, through Gatsby's Head API.
 */
import * as React from "react"
import { useStaticQuery, graphql } from "gatsby"

const Seo = ({ description, title, children }) => {
  const { site } = useStaticQuery(
    graphql`
      query {
        site {
          siteMetadata {
            title
            description
            social {
              twitter
            }
          }
        }
      }
    `
  )

  const metaDescription = description || site.siteMetadata.description
  const defaultTitle = site.siteMetadata?.title

  return (
    <>
      <title>{defaultTitle ? `${title} | ${defaultTitle}` : title}</title>
      <meta name="description" content={metaDescription} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={metaDescription} />
      <meta property="og:type" content="website" />
      <meta name="twitter:card" content="summary" />
      <meta
        name="twitter:creator"
        content={site.siteMetadata?.social?.twitter || ``}
      />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={metaDescription} />
      {children}
    </>
  )
}

export default Seo
"""

POST_LIST_ITEM = """        <li key={post.fields.slug}>
          <article
            className="post-list-item"
            itemScope
            itemType="http://schema.org/Article"
          >
            <header>
              <h2>
                <Link to={post.fields.slug} itemProp="url">
                  <span itemProp="headline">{post.frontmatter.title || post.fields.slug}</span>
                </Link>
              </h2>
              <small>{post.frontmatter.date}</small>
            </header>
            <section>
              <p
                dangerouslySetInnerHTML={{
                  __html: post.frontmatter.description || post.excerpt,
                }}
                itemProp="description"
              />
            </section>
          </article>
        </li>"""

POST_LIST_FIELDS = """        nodes {
          excerpt
          fields {
            slug
          }
          frontmatter {
            date(formatString: "MMMM DD, YYYY")
            title
            description
          }
        }"""

INDEX = (
    """import * as React from "react"
import { Link, graphql } from "gatsby"

import Bio from "../components/bio"
import Layout from "../components/layout"
import Seo from "../components/seo"

const BlogIndex = ({ data, location }) => {
  const siteTitle = data.site.siteMetadata?.title || `Title`
  const posts = data.allMarkdownRemark.nodes

  if (posts.length === 0) {
    return (
      <Layout location={location} title={siteTitle}>
        <Bio />
        <p>No blog posts found.</p>
      </Layout>
    )
  }

  return (
    <Layout location={location} title={siteTitle}>
      <Bio />
      <ol style={{ listStyle: `none` }}>
        {posts.map(post => (
"""
    + POST_LIST_ITEM
    + """
        ))}
      </ol>
    </Layout>
  )
}

export default BlogIndex

/**
 * Head export to define metadata for the page
 *
 * See: https://www.gatsbyjs.com/docs/reference/built-in-components/gatsby-head/
 */
export const Head = () => <Seo title="All posts" />

export const pageQuery = graphql`
  {
    site {
      siteMetadata {
        title
      }
    }
    allMarkdownRemark(
      filter: { frontmatter: { draft: { ne: true } } }
      sort: { frontmatter: { date: DESC } }
    ) {
"""
    + POST_LIST_FIELDS
    + """
    }
  }
`
"""
)

BLOG_LIST = (
    """import * as React from "react"
import { Link, graphql } from "gatsby"

import Layout from "../components/layout"
import Seo from "../components/seo"

// Gatsby's "Adding Pagination" recipe: limit and skip from the page's context.
const BlogList = ({ data, location, pageContext }) => {
  const siteTitle = data.site.siteMetadata?.title || `Title`
  const posts = data.allMarkdownRemark.nodes
  const { currentPage, numPages } = pageContext
  const isFirst = currentPage === 1
  const isLast = currentPage === numPages
  const prevPage = currentPage - 1 === 1 ? `/blog/` : `/blog/${currentPage - 1}/`
  const nextPage = `/blog/${currentPage + 1}/`

  return (
    <Layout location={location} title={siteTitle}>
      <h1>Blog, page {currentPage} of {numPages}</h1>
      <ol style={{ listStyle: `none` }}>
        {posts.map(post => (
"""
    + POST_LIST_ITEM
    + """
        ))}
      </ol>
      <nav className="pagination">
        <ul>
          {!isFirst && (
            <li>
              <Link to={prevPage} rel="prev">
                ← Previous Page
              </Link>
            </li>
          )}
          {Array.from({ length: numPages }, (_, i) => (
            <li key={`pagination-number${i + 1}`}>
              <Link to={`/blog/${i === 0 ? `` : `${i + 1}/`}`}>{i + 1}</Link>
            </li>
          ))}
          {!isLast && (
            <li>
              <Link to={nextPage} rel="next">
                Next Page →
              </Link>
            </li>
          )}
        </ul>
      </nav>
    </Layout>
  )
}

export default BlogList

export const Head = ({ pageContext }) => (
  <Seo title={`Blog, page ${pageContext.currentPage}`} />
)

export const blogListQuery = graphql`
  query blogListQuery($skip: Int!, $limit: Int!) {
    site {
      siteMetadata {
        title
      }
    }
    allMarkdownRemark(
      filter: { frontmatter: { draft: { ne: true } } }
      sort: { frontmatter: { date: DESC } }
      limit: $limit
      skip: $skip
    ) {
"""
    + POST_LIST_FIELDS
    + """
    }
  }
`
"""
)

BLOG_POST = """import * as React from "react"
import { Link, graphql } from "gatsby"
import kebabCase from "lodash/kebabCase"

import Bio from "../components/bio"
import Layout from "../components/layout"
import Seo from "../components/seo"

const BlogPostTemplate = ({
  data: { previous, next, site, markdownRemark: post },
  location,
}) => {
  const siteTitle = site.siteMetadata?.title || `Title`
  const { tags, category } = post.frontmatter

  return (
    <Layout location={location} title={siteTitle}>
      <article
        className="blog-post"
        itemScope
        itemType="http://schema.org/Article"
      >
        <header>
          <h1 itemProp="headline">{post.frontmatter.title}</h1>
          <p>{post.frontmatter.date}</p>
          <p className="post-terms">
            {category && (
              <>
                In{` `}
                <Link to={`/categories/${kebabCase(category)}/`}>{category}</Link>
              </>
            )}
            {tags && tags.length > 0 && (
              <>
                {` · Tagged `}
                {tags.map((tag, i) => (
                  <React.Fragment key={tag}>
                    {i > 0 && `, `}
                    <Link to={`/tags/${kebabCase(tag)}/`}>{tag}</Link>
                  </React.Fragment>
                ))}
              </>
            )}
          </p>
        </header>
        <section
          dangerouslySetInnerHTML={{ __html: post.html }}
          itemProp="articleBody"
        />
        <hr />
        <footer>
          <Bio />
        </footer>
      </article>
      <nav className="blog-post-nav">
        <ul
          style={{
            display: `flex`,
            flexWrap: `wrap`,
            justifyContent: `space-between`,
            listStyle: `none`,
            padding: 0,
          }}
        >
          <li>
            {previous && (
              <Link to={previous.fields.slug} rel="prev">
                ← {previous.frontmatter.title}
              </Link>
            )}
          </li>
          <li>
            {next && (
              <Link to={next.fields.slug} rel="next">
                {next.frontmatter.title} →
              </Link>
            )}
          </li>
        </ul>
      </nav>
    </Layout>
  )
}

export const Head = ({ data: { markdownRemark: post } }) => {
  return (
    <Seo
      title={post.frontmatter.title}
      description={post.frontmatter.description || post.excerpt}
    />
  )
}

export default BlogPostTemplate

export const pageQuery = graphql`
  query BlogPostBySlug(
    $id: String!
    $previousPostId: String
    $nextPostId: String
  ) {
    site {
      siteMetadata {
        title
      }
    }
    markdownRemark(id: { eq: $id }) {
      id
      excerpt(pruneLength: 160)
      html
      frontmatter {
        title
        date(formatString: "MMMM DD, YYYY")
        description
        tags
        category
      }
    }
    previous: markdownRemark(id: { eq: $previousPostId }) {
      fields {
        slug
      }
      frontmatter {
        title
      }
    }
    next: markdownRemark(id: { eq: $nextPostId }) {
      fields {
        slug
      }
      frontmatter {
        title
      }
    }
  }
`
"""


def _term_template(kind: str, field: str, label: str, index_path: str, index_label: str) -> str:
    """The docs recipe's tag template (a header with the count, the posts as links, a link to
    every term), in the starter's layout; ``field`` is the front matter field filtered on."""
    var = field.rstrip("s")
    match = f"in: [${var}]" if field == "tags" else f"eq: ${var}"
    return f"""import * as React from "react"
import {{ Link, graphql }} from "gatsby"

import Layout from "../components/layout"
import Seo from "../components/seo"

// Gatsby's "Creating Tags Pages for Blog Posts" recipe.
const {kind} = ({{ pageContext, data, location }}) => {{
  const {{ {field.rstrip("s")} }} = pageContext
  const siteTitle = data.site.siteMetadata?.title || `Title`
  const {{ nodes, totalCount }} = data.allMarkdownRemark
  const header = `${{totalCount}} post${{
    totalCount === 1 ? "" : "s"
  }} {label} "${{{field.rstrip("s")}}}"`

  return (
    <Layout location={{location}} title={{siteTitle}}>
      <h1>{{header}}</h1>
      <ul>
        {{nodes.map(node => {{
          const {{ slug }} = node.fields
          const {{ title, date }} = node.frontmatter
          return (
            <li key={{slug}}>
              <Link to={{slug}}>{{title}}</Link> <small>{{date}}</small>
            </li>
          )
        }})}}
      </ul>
      <Link to="{index_path}">{index_label}</Link>
    </Layout>
  )
}}

export default {kind}

export const Head = ({{ pageContext }}) => <Seo title={{pageContext.{field.rstrip("s")}}} />

export const pageQuery = graphql`
  query(${var}: String) {{
    site {{
      siteMetadata {{
        title
      }}
    }}
    allMarkdownRemark(
      limit: 2000
      sort: {{ frontmatter: {{ date: DESC }} }}
      filter: {{ frontmatter: {{ {field}: {{ {match} }}, draft: {{ ne: true }} }} }}
    ) {{
      totalCount
      nodes {{
        fields {{
          slug
        }}
        frontmatter {{
          title
          date(formatString: "MMMM DD, YYYY")
        }}
      }}
    }}
  }}
`
"""


def _terms_page(kind: str, field: str, title: str, prefix: str) -> str:
    """The docs recipe's tags page (every term with its count), in the starter's layout."""
    return f"""import * as React from "react"
import kebabCase from "lodash/kebabCase"
import {{ Link, graphql }} from "gatsby"

import Layout from "../components/layout"
import Seo from "../components/seo"

const {kind} = ({{
  data: {{
    allMarkdownRemark: {{ group }},
    site: {{
      siteMetadata: {{ title }},
    }},
  }},
  location,
}}) => (
  <Layout location={{location}} title={{title}}>
    <h1>{title}</h1>
    <ul>
      {{group.map(term => (
        <li key={{term.fieldValue}}>
          <Link to={{`/{prefix}/${{kebabCase(term.fieldValue)}}/`}}>
            {{term.fieldValue}} ({{term.totalCount}})
          </Link>
        </li>
      ))}}
    </ul>
  </Layout>
)

export default {kind}

export const Head = () => <Seo title="{title}" />

export const pageQuery = graphql`
  query {{
    site {{
      siteMetadata {{
        title
      }}
    }}
    allMarkdownRemark(
      limit: 2000
      filter: {{ frontmatter: {{ draft: {{ ne: true }} }} }}
    ) {{
      group(field: {{ frontmatter: {{ {field}: SELECT }} }}) {{
        fieldValue
        totalCount
      }}
    }}
  }}
`
"""


NOT_FOUND = """import * as React from "react"
import { graphql } from "gatsby"

import Layout from "../components/layout"
import Seo from "../components/seo"

const NotFoundPage = ({ data, location }) => {
  const siteTitle = data.site.siteMetadata.title

  return (
    <Layout location={location} title={siteTitle}>
      <h1>404: Not Found</h1>
      <p>There is no page at this address.</p>
    </Layout>
  )
}

export const Head = () => <Seo title="404: Not Found" />

export default NotFoundPage

export const pageQuery = graphql`
  query {
    site {
      siteMetadata {
        title
      }
    }
  }
`
"""


def _about_page() -> str:
    paragraphs = [" ".join(par.split("\n")) for par in ABOUT.body.strip().split("\n\n")]
    body = "\n".join(f"      <p>{json.dumps(par, ensure_ascii=False)[1:-1]}</p>" for par in paragraphs)
    return f"""import * as React from "react"
import {{ graphql }} from "gatsby"

import Bio from "../components/bio"
import Layout from "../components/layout"
import Seo from "../components/seo"

const AboutPage = ({{ data, location }}) => {{
  const siteTitle = data.site.siteMetadata.title

  return (
    <Layout location={{location}} title={{siteTitle}}>
      <h1>{ABOUT.title}</h1>
{body}
      <Bio />
    </Layout>
  )
}}

export const Head = () => <Seo title="{ABOUT.title}" />

export default AboutPage

export const pageQuery = graphql`
  query {{
    site {{
      siteMetadata {{
        title
      }}
    }}
  }}
`
"""


STYLE = """/* The blog's own styles, in the manner of the starter's style.css (a narrow column, the bio
   beside its avatar, the post list without bullets). */
:root {
  --maxWidth-wrapper: 42rem;
  --spacing-4: 1rem;
  --spacing-8: 2rem;
  --color-primary: #005b99;
  --color-text: #2e353f;
  --font-body: Georgia, serif;
  --font-heading: system-ui, sans-serif;
}
body { font-family: var(--font-body); color: var(--color-text); line-height: 1.6; }
a { color: var(--color-primary); }
.global-wrapper {
  margin: 0 auto; max-width: var(--maxWidth-wrapper); padding: var(--spacing-8) var(--spacing-4);
}
.global-header { margin-bottom: var(--spacing-8); }
.main-heading, .header-link-home {
  font-family: var(--font-heading); font-weight: 800; text-decoration: none;
}
.bio { display: flex; margin-bottom: var(--spacing-8); }
.bio p { margin-bottom: 0; }
.bio-avatar { margin-right: var(--spacing-4); min-width: 50px; border-radius: 100%; }
.post-list-item { margin-bottom: var(--spacing-8); }
.post-list-item h2 { font-size: 1.5rem; margin-bottom: 0.25rem; }
.blog-post header h1 { margin: 0 0 var(--spacing-4) 0; }
.blog-post header p, .post-terms { font-size: 0.9rem; }
.blog-post-nav ul { margin: 0; }
.pagination ul { display: flex; gap: var(--spacing-4); list-style: none; padding: 0; }
.gatsby-highlight { margin-bottom: var(--spacing-4); }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .25rem .5rem; }
"""

NORMALIZE = """/* A few rules of normalize.css, as the starter imports it first. */
html { line-height: 1.15; -webkit-text-size-adjust: 100%; }
body { margin: 0; }
main { display: block; }
h1 { font-size: 2em; margin: 0.67em 0; }
hr { box-sizing: content-box; height: 0; overflow: visible; }
pre { font-family: monospace, monospace; font-size: 1em; }
"""


def _png(size: int, rgb: tuple[int, int, int]) -> bytes:
    """A square PNG of one colour (the Bio's avatar, the manifest's icon: sharp resizes them)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(rgb) * size
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(row * size, 9))
        + chunk(b"IEND", b"")
    )


def _write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def gatsby_blog() -> None:
    """Gatsby 5 with the blog starter's layout: ``content/blog/<slug>/index.md`` at ``/<slug>/``."""
    src = _fresh("gatsby-blog")
    for p in POSTS:
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
            f'date: "{p.date}T09:30:00.000Z"\n'
            f"description: {json.dumps(_description(p), ensure_ascii=False)}\n"
            f"tags: {json.dumps(list(p.tags), ensure_ascii=False)}\n"
            f"category: {p.category}\n" + ("draft: true\n" if p.draft else "") + "---\n\n"
        )
        _write(src / "content" / "blog" / p.slug / "index.md", front + p.body)
    files = {
        "gatsby-config.js": GATSBY_CONFIG,
        "gatsby-node.js": GATSBY_NODE,
        "gatsby-browser.js": GATSBY_BROWSER,
        "gatsby-ssr.js": GATSBY_SSR,
        "src/components/layout.js": LAYOUT,
        "src/components/bio.js": BIO,
        "src/components/seo.js": SEO,
        "src/templates/blog-post.js": BLOG_POST,
        "src/templates/blog-list.js": BLOG_LIST,
        "src/templates/tags.js": _term_template("Tags", "tags", "tagged with", "/tags/", "All tags"),
        "src/templates/category.js": _term_template(
            "Category", "category", "filed under", "/categories/", "All categories"
        ),
        "src/pages/index.js": INDEX,
        "src/pages/tags.js": _terms_page("TagsPage", "tags", "Tags", "tags"),
        "src/pages/categories.js": _terms_page("CategoriesPage", "category", "Categories", "categories"),
        "src/pages/about.js": _about_page(),
        "src/pages/404.js": NOT_FOUND,
        "src/style.css": STYLE,
        "src/normalize.css": NORMALIZE,
    }
    for rel, text in files.items():
        _write(src / rel, text)
    _write_bytes(src / "src" / "images" / "profile-pic.png", _png(100, (102, 51, 153)))
    _write_bytes(src / "src" / "images" / "gatsby-icon.png", _png(512, (102, 51, 153)))
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-gatsby-blog",
                "private": True,
                "description": "A blog in the layout of Gatsby's blog starter",
                "version": "0.1.0",
                "scripts": {"build": "gatsby build"},
                "dependencies": {
                    d: "*"
                    for d in (
                        "gatsby",
                        "gatsby-plugin-feed",
                        "gatsby-plugin-image",
                        "gatsby-plugin-manifest",
                        "gatsby-plugin-sharp",
                        "gatsby-plugin-sitemap",
                        "gatsby-remark-copy-linked-files",
                        "gatsby-remark-images",
                        "gatsby-remark-prismjs",
                        "gatsby-remark-responsive-iframe",
                        "gatsby-source-filesystem",
                        "gatsby-transformer-remark",
                        "gatsby-transformer-sharp",
                        "prismjs",
                        "react",
                        "react-dom",
                    )
                },
            },
            indent=1,
        )
        + "\n",
    )
