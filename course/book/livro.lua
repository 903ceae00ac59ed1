-- Filtro do pandoc para ./hz book: junta os arquivos do livro num HTML só.
--
-- O course/book/render.sh embrulha cada arquivo numa div
--   ::: {#ID .capitulo arquivo="NOME.md"}
-- e este filtro, para cada capítulo, tira a div (deixando no lugar uma
-- âncora vazia com o ID) e:
--   * prefixa todo id com "ID--" (cada capítulo tem o seu "objetivos-de-aprendizagem");
--   * troca links entre capítulos por âncoras da página:
--       NOME.md -> #ID    NOME.md#x -> #ID--x    #x -> #ID_DESTE--x
--   * tira o link de caminhos do repositório fora do livro (../README.md...):
--     fica o texto, com o caminho no title;
--   * troca o comentário <!-- listing: CAMINHO#REGIAO --> por uma legenda com
--     âncora (#ID--listagem-REGIAO) acima do bloco de código.

local chapter_of = {} -- "01-loop.md" -> "01-loop"

local function has_scheme(target)
  return target:match("^%a[%w+.-]*:") ~= nil
end

local function split_fragment(target)
  local path, fragment = target:match("^([^#]*)#(.*)$")
  if path then return path, fragment end
  return target, nil
end

-- O destino de um link escrito no capítulo `current`; nil se o link sai do livro.
local function rewrite_target(target, current)
  if target == "" or has_scheme(target) then return target end
  local path, fragment = split_fragment(target)
  if path == "" then
    return "#" .. current .. "--" .. (fragment or "")
  end
  local file = path:gsub("^%./", "")
  local id = chapter_of[file]
  if not id then return nil end
  if fragment and fragment ~= "" then return "#" .. id .. "--" .. fragment end
  return "#" .. id
end

-- ids e links dentro de HTML cru (o <a id="react"></a> da bibliografia).
local function rewrite_raw_html(text, current)
  text = text:gsub('(%sid=")([^"]*)(")', function(a, id, b)
    return a .. current .. "--" .. id .. b
  end)
  text = text:gsub('(%shref=")([^"]*)(")', function(a, href, b)
    local new = rewrite_target(href, current)
    return a .. (new or href) .. b
  end)
  return text
end

local function prefix_identifier(el, current)
  if el.identifier and el.identifier ~= "" then
    el.identifier = current .. "--" .. el.identifier
    return el
  end
  return nil
end

local listing_ids = {} -- id -> quantas listagens já o usaram

local function listing_caption(text, current)
  local spec = text:match("^%s*<!%-%-%s*listing:%s*(%S+)%s*%-%->%s*$")
  if not spec then return nil end
  local path, region = split_fragment(spec)
  local content = { pandoc.Str("Listagem:"), pandoc.Space(), pandoc.Code(path) }
  local id = current .. "--listagem-" .. (region or path:gsub("[^%w]+", "-"))
  -- A mesma região aparece mais de uma vez (o contrato, o stub, a resposta):
  -- a segunda ganha "-2", a terceira "-3", e os ids continuam únicos.
  listing_ids[id] = (listing_ids[id] or 0) + 1
  if listing_ids[id] > 1 then id = id .. "-" .. listing_ids[id] end
  if region then
    content[#content + 1] = pandoc.Str(",")
    content[#content + 1] = pandoc.Space()
    content[#content + 1] = pandoc.Str("região")
    content[#content + 1] = pandoc.Space()
    content[#content + 1] = pandoc.Code(region)
  end
  return pandoc.Div({ pandoc.Plain(content) }, pandoc.Attr(id, { "listagem" }))
end

local function chapter_filter(current)
  return {
    Header = function(el) return prefix_identifier(el, current) end,
    Div = function(el) return prefix_identifier(el, current) end,
    Span = function(el) return prefix_identifier(el, current) end,
    CodeBlock = function(el) return prefix_identifier(el, current) end,
    Code = function(el) return prefix_identifier(el, current) end,
    Image = function(el) return prefix_identifier(el, current) end,
    Link = function(el)
      prefix_identifier(el, current)
      local target = rewrite_target(el.target, current)
      if target then
        el.target = target
        return el
      end
      return pandoc.Span(el.content, pandoc.Attr("", { "fora-do-livro" },
        { { "title", "no repositório: " .. el.target } }))
    end,
    RawInline = function(el)
      if el.format == "html" then
        el.text = rewrite_raw_html(el.text, current)
        return el
      end
    end,
    RawBlock = function(el)
      if el.format ~= "html" then return nil end
      local caption = listing_caption(el.text, current)
      if caption then return caption end
      el.text = rewrite_raw_html(el.text, current)
      return el
    end,
  }
end

local function walk(block, filter)
  if block.walk then return block:walk(filter) end
  return pandoc.walk_block(block, filter)
end

function Pandoc(doc)
  for _, block in ipairs(doc.blocks) do
    if block.t == "Div" and block.classes:includes("capitulo") then
      chapter_of[block.attributes["arquivo"]] = block.identifier
    end
  end
  local blocks = {}
  for _, block in ipairs(doc.blocks) do
    if block.t == "Div" and block.classes:includes("capitulo") then
      -- O pandoc 2.x só põe no sumário os títulos fora de divs: o capítulo
      -- volta ao nível de cima, marcado por uma âncora vazia com o id dele.
      local current = block.identifier
      local inner = walk(pandoc.Div(block.content), chapter_filter(current))
      blocks[#blocks + 1] = pandoc.Div({}, pandoc.Attr(current, { "capitulo" }))
      for _, b in ipairs(inner.content) do blocks[#blocks + 1] = b end
      blocks[#blocks + 1] = pandoc.Div(
        { pandoc.Plain({ pandoc.Link({ pandoc.Str("↑ Sumário") }, "#TOC") }) },
        pandoc.Attr("", { "voltar" }))
    else
      blocks[#blocks + 1] = block
    end
  end
  doc.blocks = blocks
  return doc
end
