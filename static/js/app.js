// Generated from static/js/src by scripts/bundle_js.py: edit the sources, then `make js`.
// ==== vendor/htmx.min.js
var htmx=function(){"use strict";const Y={onLoad:null,process:null,on:null,off:null,trigger:null,ajax:null,find:null,findAll:null,closest:null,values:function(e,t){const n=pn(e,t||"post");return n.values},remove:null,addClass:null,removeClass:null,toggleClass:null,takeClass:null,swap:null,defineExtension:null,removeExtension:null,logAll:null,logNone:null,logger:null,config:{historyEnabled:true,historyCacheSize:10,refreshOnHistoryMiss:false,defaultSwapStyle:"innerHTML",defaultSwapDelay:0,defaultSettleDelay:20,includeIndicatorStyles:true,indicatorClass:"htmx-indicator",requestClass:"htmx-request",addedClass:"htmx-added",settlingClass:"htmx-settling",swappingClass:"htmx-swapping",allowEval:true,allowScriptTags:true,inlineScriptNonce:"",inlineStyleNonce:"",attributesToSettle:["class","style","width","height"],withCredentials:false,timeout:0,wsReconnectDelay:"full-jitter",wsBinaryType:"blob",disableSelector:"[hx-disable], [data-hx-disable]",scrollBehavior:"instant",defaultFocusScroll:false,getCacheBusterParam:false,globalViewTransitions:false,methodsThatUseUrlParams:["get","delete"],selfRequestsOnly:true,ignoreTitle:false,scrollIntoViewOnBoost:true,triggerSpecsCache:null,disableInheritance:false,responseHandling:[{code:"204",swap:false},{code:"[23]..",swap:true},{code:"[45]..",swap:false,error:true}],allowNestedOobSwaps:true,historyRestoreAsHxRequest:true,reportValidityOfForms:false},parseInterval:null,location:location,_:null,version:"2.0.11"};Y.onLoad=V;Y.process=Bt;Y.on=ye;Y.off=xe;Y.trigger=ae;Y.ajax=In;Y.find=a;Y.findAll=x;Y.closest=g;Y.remove=z;Y.addClass=w;Y.removeClass=S;Y.toggleClass=G;Y.takeClass=W;Y.swap=C;Y.defineExtension=zn;Y.removeExtension=Jn;Y.logAll=$;Y.logNone=_;Y.parseInterval=d;Y._=e;const n={addTriggerHandler:Et,bodyContains:ie,canAccessLocalStorage:U,findThisElement:we,filterValues:xn,swap:C,hasAttribute:s,getAttributeValue:f,getClosestAttributeValue:te,getClosestMatch:A,getExpressionVars:qn,getHeaders:yn,getInputValues:pn,getInternalData:re,getSwapSpecification:vn,getTriggerSpecs:lt,getTarget:Se,makeFragment:D,mergeObjects:se,makeSettleInfo:En,oobSwap:Te,querySelectorExt:ce,settleImmediately:Qt,shouldCancel:dt,triggerEvent:ae,triggerErrorEvent:ue,withExtensions:Vt};const he=["get","post","put","delete","patch"];const R=he.map(function(e){return"[hx-"+e+"], [data-hx-"+e+"]"}).join(", ");function d(e){if(e==undefined){return undefined}let t=NaN;if(e.slice(-2)=="ms"){t=parseFloat(e.slice(0,-2))}else if(e.slice(-1)=="s"){t=parseFloat(e.slice(0,-1))*1e3}else if(e.slice(-1)=="m"){t=parseFloat(e.slice(0,-1))*1e3*60}else{t=parseFloat(e)}return isNaN(t)?undefined:t}function Q(e,t){return e instanceof Element&&e.getAttribute(t)}function s(e,t){return!!e.hasAttribute&&(e.hasAttribute(t)||e.hasAttribute("data-"+t))}function f(e,t){return Q(e,t)||Q(e,"data-"+t)}function u(e){const t=e.parentElement;if(!t&&e.parentNode instanceof ShadowRoot)return e.parentNode;return t}function ee(){return document}function q(e,t){return e.getRootNode?e.getRootNode({composed:t}):ee()}function A(e,t){while(e&&!t(e)){e=u(e)}return e||null}function o(e,t,n){const r=f(t,n);const o=f(t,"hx-disinherit");var i=f(t,"hx-inherit");if(e!==t){if(Y.config.disableInheritance){if(i&&(i==="*"||i.split(" ").indexOf(n)>=0)){return r}else{return null}}if(o&&(o==="*"||o.split(" ").indexOf(n)>=0)){return"unset"}}return r}function te(t,n){let r=null;A(t,function(e){return!!(r=o(t,le(e),n))});if(r!=="unset"){return r}}function h(e,t){return e instanceof Element&&e.matches(t)}function N(e){const t=/<([a-z][^\/\0>\x20\t\r\n\f]*)/i;const n=t.exec(e);if(n){return n[1].toLowerCase()}else{return""}}function I(e){if("parseHTMLUnsafe"in Document){return Document.parseHTMLUnsafe(e)}const t=new DOMParser;return t.parseFromString(e,"text/html")}function L(e,t){while(t.childNodes.length>0){e.append(t.childNodes[0])}}function r(e){const t=ee().createElement("script");oe(e.attributes,function(e){t.setAttribute(e.name,e.value)});t.textContent=e.textContent;t.async=false;if(Y.config.inlineScriptNonce){t.nonce=Y.config.inlineScriptNonce}return t}function i(e){return e.matches("script")&&(e.type==="text/javascript"||e.type==="module"||e.type==="")}function k(e){if(!Y.config.allowScriptTags){e.querySelectorAll("script").forEach(e=>e.remove());return}Array.from(e.querySelectorAll("script")).forEach(e=>{if(i(e)){const t=r(e);const n=e.parentNode;try{n.insertBefore(t,e)}catch(e){T(e)}finally{e.remove()}}})}function D(e){e=e.replace(/<hx-([a-z]+)((?:\s[^>]*)?)>/gi,'<template hx type="$1"$2>').replace(/<\/hx-[a-z]+>/gi,"</template>");const t=e.replace(/<head(\s[^>]*)?>[\s\S]*?<\/head>/i,"");const n=N(t);let r;if(n==="html"){r=new DocumentFragment;const i=I(e);L(r,i.body);r.title=i.title}else if(n==="body"){r=new DocumentFragment;const i=I(t);L(r,i.body);r.title=i.title}else{const i=I('<body><template class="internal-htmx-wrapper">'+t+"</template></body>");r=i.querySelector("template").content;r.title=i.title;var o=r.querySelector("title");if(o&&o.parentNode===r){o.remove();r.title=o.innerText}}if(r){k(r)}return r}function ne(e){if(e){e()}}function t(e,t){return Object.prototype.toString.call(e)==="[object "+t+"]"}function P(e){return typeof e==="function"}function M(e){return t(e,"Object")}function re(e){const t="htmx-internal-data";let n=e[t];if(!n){n=e[t]={}}return n}function F(t){const n=[];if(t){for(let e=0;e<t.length;e++){n.push(t[e])}}return n}function oe(t,n){if(t){for(let e=0;e<t.length;e++){n(t[e])}}}function B(e){const t=e.getBoundingClientRect();const n=t.top;const r=t.bottom;return n<window.innerHeight&&r>=0}function ie(e){return e.getRootNode({composed:true})===document}function X(e){return e.trim().split(/\s+/)}function se(e,t){return Object.assign({},e,t)}function v(e){try{return JSON.parse(e)}catch(e){T(e);return null}}function U(){const e="htmx:sessionStorageTest";try{sessionStorage.setItem(e,e);sessionStorage.removeItem(e);return true}catch(e){return false}}function j(e){try{const t=new URL(e,window.location.href);e=t.pathname+t.search}catch(e){}if(e!="/"){e=e.replace(/\/+$/,"")}return e}function e(e){return Tn(ee().body,function(){return eval(e)})}function V(t){const e=Y.on("htmx:load",function(e){t(e.detail.elt)});return e}function $(){Y.logger=function(e,t,n){if(console){console.log(t,e,n)}}}function _(){Y.logger=null}function a(e,t){if(typeof e!=="string"){return e.querySelector(t)}else{return a(ee(),e)}}function x(e,t){if(typeof e!=="string"){return e.querySelectorAll(t)}else{return x(ee(),e)}}function b(){return window}function z(e,t){e=E(e);if(t){b().setTimeout(function(){z(e);e=null},t)}else{u(e).removeChild(e)}}function le(e){return e instanceof Element?e:null}function J(e){return e instanceof HTMLElement?e:null}function K(e){return typeof e==="string"?e:null}function p(e){return e instanceof Element||e instanceof Document||e instanceof DocumentFragment?e:null}function w(e,t,n){e=le(E(e));if(!e){return}if(n){b().setTimeout(function(){w(e,t);e=null},n)}else{e.classList&&e.classList.add(t)}}function S(e,t,n){let r=le(E(e));if(!r){return}if(n){b().setTimeout(function(){S(r,t);r=null},n)}else{if(r.classList){r.classList.remove(t);if(r.classList.length===0){r.removeAttribute("class")}}}}function G(e,t){e=E(e);e.classList.toggle(t)}function W(e,t){e=E(e);oe(e.parentElement.children,function(e){S(e,t)});w(le(e),t)}function g(e,t){e=le(E(e));if(e){return e.closest(t)}return null}function l(e,t){return e.substring(0,t.length)===t}function Z(e,t){return e.substring(e.length-t.length)===t}function de(e){const t=e.trim();if(l(t,"<")&&Z(t,"/>")){return t.substring(1,t.length-2)}else{return t}}function m(t,r,n){if(r.indexOf("global ")===0){return m(t,r.slice(7),true)}t=E(t);const o=[];{let t=0;let n=0;for(let e=0;e<r.length;e++){const l=r[e];if(l===","&&t===0){o.push(r.substring(n,e));n=e+1;continue}if(l==="<"){t++}else if(l==="/"&&e<r.length-1&&r[e+1]===">"){t--}}if(n<r.length){o.push(r.substring(n))}}const i=[];const s=[];while(o.length>0){const r=de(o.shift());let e;if(r.indexOf("closest ")===0){e=g(le(t),de(r.slice(8)))}else if(r.indexOf("find ")===0){e=a(p(t),de(r.slice(5)))}else if(r==="next"||r==="nextElementSibling"){e=le(t).nextElementSibling}else if(r.indexOf("next ")===0){e=pe(t,de(r.slice(5)),!!n)}else if(r==="previous"||r==="previousElementSibling"){e=le(t).previousElementSibling}else if(r.indexOf("previous ")===0){e=ge(t,de(r.slice(9)),!!n)}else if(r==="document"){e=document}else if(r==="window"){e=window}else if(r==="body"){e=document.body}else if(r==="root"){e=q(t,!!n)}else if(r==="host"){e=t.getRootNode().host}else{s.push(r)}if(e){i.push(e)}}if(s.length>0){const e=s.join(",");const c=p(q(t,!!n));i.push(...F(c.querySelectorAll(e)))}return i}var pe=function(t,e,n){const r=p(q(t,n)).querySelectorAll(e);for(let e=0;e<r.length;e++){const o=r[e];if(o.compareDocumentPosition(t)===Node.DOCUMENT_POSITION_PRECEDING){return o}}};var ge=function(t,e,n){const r=p(q(t,n)).querySelectorAll(e);for(let e=r.length-1;e>=0;e--){const o=r[e];if(o.compareDocumentPosition(t)===Node.DOCUMENT_POSITION_FOLLOWING){return o}}};function ce(e,t){if(typeof e!=="string"){return m(e,t)[0]}else{return m(ee().body,e)[0]}}function E(e,t){if(typeof e==="string"){return a(p(t)||document,e)}else{return e}}function me(e,t,n,r){if(P(t)){return{target:ee().body,event:K(e),listener:t,options:n}}else{return{target:E(e),event:K(t),listener:n,options:r}}}function ye(t,n,r,o){Wn(function(){const e=me(t,n,r,o);e.target.addEventListener(e.event,e.listener,e.options)});const e=P(n);return e?n:r}function xe(t,n,r){Wn(function(){const e=me(t,n,r);e.target.removeEventListener(e.event,e.listener)});return P(n)?n:r}const be=ee().createElement("output");function ve(t,n){const e=te(t,n);if(e){if(e==="this"){return[we(t,n)]}else{const r=m(t,e);const o=/(^|,)(\s*)inherit(\s*)($|,)/.test(e);if(o){const i=le(A(t,function(e){return e!==t&&s(le(e),n)}));if(i){r.push(...ve(i,n))}}if(r.length===0){T('The selector "'+e+'" on '+n+" returned no matches!");return[be]}else{return r}}}}function we(e,t){return le(A(e,function(e){return f(le(e),t)!=null}))}function Se(e){const t=te(e,"hx-target");if(t){if(t==="this"){return we(e,"hx-target")}else{return ce(e,t)}}else{const n=re(e);if(n.boosted){return ee().body}else{return e}}}function Ee(e){return Y.config.attributesToSettle.includes(e)}function Ce(t,n){oe(Array.from(t.attributes),function(e){if(!n.hasAttribute(e.name)&&Ee(e.name)){t.removeAttribute(e.name)}});oe(n.attributes,function(e){if(Ee(e.name)){t.setAttribute(e.name,e.value)}})}function Oe(t,e){const n=Kn(e);for(let e=0;e<n.length;e++){const r=n[e];try{if(r.isInlineSwap(t)){return true}}catch(e){T(e)}}return t==="outerHTML"}function Te(e,o,i,t){t=t||ee();let n="#"+CSS.escape(Q(o,"id"));let s="outerHTML";if(e==="true"){}else if(e.indexOf(":")>0){s=e.substring(0,e.indexOf(":"));n=e.substring(e.indexOf(":")+1)}else{s=e}o.removeAttribute("hx-swap-oob");o.removeAttribute("data-hx-swap-oob");const r=m(t,n,false);if(r.length){oe(r,function(e){let t;const n=o.cloneNode(true);t=ee().createDocumentFragment();t.appendChild(n);if(!Oe(s,e)){t=p(n)}const r={shouldSwap:true,target:e,fragment:t};if(!ae(e,"htmx:oobBeforeSwap",r))return;e=r.target;if(r.shouldSwap){Re(t);Ve(s,e,e,t,i);He()}oe(i.elts,function(e){ae(e,"htmx:oobAfterSwap",r)})});o.parentNode.removeChild(o)}else{o.parentNode.removeChild(o);ue(ee().body,"htmx:oobErrorNoTarget",{content:o,target:n})}return e}function He(){const e=a("#--htmx-preserve-pantry--");if(e){for(const t of[...e.children]){const n=a("#"+t.id);n.parentNode.moveBefore(t,n);n.remove()}e.remove()}}function Re(e){oe(x(e,"[hx-preserve], [data-hx-preserve]"),function(e){const t=f(e,"id");const n=ee().getElementById(t);if(n!=null){if(e.moveBefore){let e=a("#--htmx-preserve-pantry--");if(e==null){ee().body.insertAdjacentHTML("afterend","<div id='--htmx-preserve-pantry--'></div>");e=a("#--htmx-preserve-pantry--")}e.moveBefore(n,null)}else{e.parentNode.replaceChild(n,e)}}})}function qe(i,e,s){oe(e.querySelectorAll("[id]"),function(t){const n=Q(t,"id");if(n&&n.length>0){const e=p(i);const r=e&&e.querySelector(CSS.escape(t.tagName)+"#"+CSS.escape(n));if(r&&r!==e){const o=t.cloneNode();Ce(t,r);s.tasks.push(function(){Ce(t,o)})}}})}function Ae(e){return function(){S(e,Y.config.addedClass);Bt(le(e));Ne(p(e));ae(e,"htmx:load")}}function Ne(e){const t="[autofocus]";const n=J(h(e,t)?e:e.querySelector(t));if(n!=null){n.focus()}}function c(e,t,n,r){qe(e,n,r);while(n.childNodes.length>0){const o=n.firstChild;w(le(o),Y.config.addedClass);e.insertBefore(o,t);if(o.nodeType!==Node.TEXT_NODE&&o.nodeType!==Node.COMMENT_NODE){r.tasks.push(Ae(o))}}}function Ie(e,t){let n=0;while(n<e.length){t=(t<<5)-t+e.charCodeAt(n++)|0}return t}function Le(t){let n=0;for(let e=0;e<t.attributes.length;e++){const r=t.attributes[e];if(r.value){n=Ie(r.name,n);n=Ie(r.value,n)}}return n}function ke(t){const n=re(t);if(n.onHandlers){for(let e=0;e<n.onHandlers.length;e++){const r=n.onHandlers[e];xe(t,r.event,r.listener)}delete n.onHandlers}}function De(e){const t=re(e);if(t.timeout){clearTimeout(t.timeout)}if(t.listenerInfos){oe(t.listenerInfos,function(e){if(e.on){xe(e.on,e.trigger,e.listener)}})}ke(e);oe(Object.keys(t),function(e){if(e!=="firstInitCompleted")delete t[e]})}function y(e){ae(e,"htmx:beforeCleanupElement");De(e);oe(e.children,function(e){y(e)})}function Pe(t,e,n){if(t.tagName==="BODY"){return je(t,e,n)}let r;const o=t.previousSibling;const i=u(t);if(!i){return}c(i,t,e,n);if(o==null){r=i.firstChild}else{r=o.nextSibling}n.elts=n.elts.filter(function(e){return e!==t});while(r&&r!==t){if(r instanceof Element){n.elts.push(r)}r=r.nextSibling}y(t);t.remove()}function Me(e,t,n){return c(e,e.firstChild,t,n)}function Fe(e,t,n){return c(u(e),e,t,n)}function Be(e,t,n){return c(e,null,t,n)}function Xe(e,t,n){return c(u(e),e.nextSibling,t,n)}function Ue(e){y(e);const t=u(e);if(t){return t.removeChild(e)}}function je(e,t,n){const r=e.firstChild;c(e,r,t,n);if(r){while(r.nextSibling){y(r.nextSibling);e.removeChild(r.nextSibling)}y(r);e.removeChild(r)}}function Ve(t,e,n,r,o){switch(t){case"none":return;case"outerHTML":Pe(n,r,o);return;case"afterbegin":Me(n,r,o);return;case"beforebegin":Fe(n,r,o);return;case"beforeend":Be(n,r,o);return;case"afterend":Xe(n,r,o);return;case"delete":Ue(n);return;default:var i=Kn(e);for(let e=0;e<i.length;e++){const s=i[e];try{const l=s.handleSwap(t,n,r,o);if(l){if(Array.isArray(l)){for(let e=0;e<l.length;e++){const c=l[e];if(c.nodeType!==Node.TEXT_NODE&&c.nodeType!==Node.COMMENT_NODE){o.tasks.push(Ae(c))}}}return}}catch(e){T(e)}}if(t==="innerHTML"){je(n,r,o)}else{Ve(Y.config.defaultSwapStyle,e,n,r,o)}}}function $e(e,s,l){var t=x(e,"template[hx]");oe(t,function(r){var e=Q(r,"type");if(e==="partial"){var t=f(r,"hx-target")||(r.id?"#"+CSS.escape(r.id):null);if(t){var n=f(r,"hx-swap");var o=vn(r,n);var i=m(l||ee().body,t,false);if(i.length===0){ue(ee().body,"htmx:partialErrorNoTarget",{template:r,targetSelector:t,sourceElement:l})}oe(i,function(e){e=le(e);if(e){var t=r.content.cloneNode(true);k(t);var n={shouldSwap:true,target:e,fragment:t};if(!ae(e,"htmx:partialBeforeSwap",n))return;e=n.target;if(n.shouldSwap){C(e,n.fragment,o,{contextElement:e,afterSwapCallback:function(){oe(s.elts,function(e){ae(e,"htmx:partialAfterSwap",n)})}})}}})}}else{ae(ee().body,"htmx:processTemplate",{type:e,template:r,settleInfo:s,sourceElement:l})}r.parentNode.removeChild(r)});return t.length>0}function _e(e,n,r){var t=x(e,"[hx-swap-oob], [data-hx-swap-oob]");oe(t,function(e){if(Y.config.allowNestedOobSwaps||e.parentElement===null){const t=f(e,"hx-swap-oob");if(t!=null){Te(t,e,n,r)}}else{e.removeAttribute("hx-swap-oob");e.removeAttribute("data-hx-swap-oob")}});return t.length>0}function C(d,p,g,m){if(!m){m={}}let y=null;let n=null;let e=function(){ne(m.beforeSwapCallback);d=E(d);const r=m.contextElement&&m.contextElement.isConnected?q(m.contextElement,false):ee();const e=document.activeElement;let t={};t={elt:e,start:e?e.selectionStart:null,end:e?e.selectionEnd:null};const o=En(d);if(g.swapStyle==="textContent"){d.textContent=p}else{let n=typeof p==="string"?D(p):p;o.title=m.title||n.title;if(m.historyRequest){n=n.querySelector("[hx-history-elt],[data-hx-history-elt]")||n}if(m.selectOOB){const s=m.selectOOB.split(",");for(let t=0;t<s.length;t++){const l=s[t].split(":",2);let e=l[0].trim();if(e.indexOf("#")===0){e=e.substring(1)}const c=l[1]||"true";const u=n.querySelector("#"+e);if(u){Te(c,u,o,r)}}}_e(n,o,r);oe(x(n,"template"),function(e){if(e.content&&_e(e.content,o,r)){e.remove()}});var i=$e(n,o,m.contextElement||le(d));if(m.select){const a=ee().createDocumentFragment();oe(n.querySelectorAll(m.select),function(e){a.appendChild(e)});n=a}Re(n);if(i&&!n.childElementCount&&!n.textContent.trim()){o.elts=[le(d)]}else{Ve(g.swapStyle,m.contextElement,d,n,o)}He()}if(t.elt&&!ie(t.elt)&&Q(t.elt,"id")){const f=document.getElementById(Q(t.elt,"id"));const h={preventScroll:g.focusScroll!==undefined?!g.focusScroll:!Y.config.defaultFocusScroll};if(f){if(t.start&&f.setSelectionRange){try{f.setSelectionRange(t.start,t.end)}catch(e){}}f.focus(h)}}S(d,Y.config.swappingClass);oe(o.elts,function(e){if(e.classList){w(e,Y.config.settlingClass)}ae(e,"htmx:afterSwap",m.eventInfo)});ne(m.afterSwapCallback);if(!g.ignoreTitle){Un(o.title)}const n=function(){oe(o.tasks,function(e){e.call()});oe(o.elts,function(e){if(e.classList){S(e,Y.config.settlingClass)}ae(e,"htmx:afterSettle",m.eventInfo)});if(m.anchor){const e=le(E("#"+m.anchor));if(e){e.scrollIntoView({block:"start",behavior:"auto"})}}Cn(o.elts,g);ne(m.afterSettleCallback);ne(y)};if(g.settleDelay>0){b().setTimeout(n,g.settleDelay)}else{n()}};let t=Y.config.globalViewTransitions;if(g.hasOwnProperty("transition")){t=g.transition}const r=m.contextElement||ee();if(t&&ae(r,"htmx:beforeTransition",m.eventInfo)&&typeof Promise!=="undefined"&&document.startViewTransition){const o=new Promise(function(e,t){y=e;n=t});const i=e;e=function(){document.startViewTransition(function(){i();return o})}}try{if(g?.swapDelay&&g.swapDelay>0){b().setTimeout(e,g.swapDelay)}else{e()}}catch(e){ue(r,"htmx:swapError",m.eventInfo);ne(n);throw e}}function ze(e,t,n){const r=e.getResponseHeader(t);if(r.indexOf("{")===0){const o=v(r)||{};for(const i of Object.keys(o)){let e=o[i];if(M(e)){n=e.target!==undefined?e.target:n}else{e={value:e}}ae(n,i,e)}}else{const s=r.split(",");for(let e=0;e<s.length;e++){ae(n,s[e].trim(),[])}}}const Je=/\s/;const Ke=/[\s,]/;const Ge=/[_$a-zA-Z]/;const We=/[_$a-zA-Z0-9]/;const Ze=['"',"'","/"];const Ye=/[^\s]/;const Qe=/[{(]/;const et=/[})]/;function tt(e){const t=[];let n=0;while(n<e.length){if(Ge.exec(e.charAt(n))){var r=n;while(We.exec(e.charAt(n+1))){n++}t.push(e.substring(r,n+1))}else if(Ze.indexOf(e.charAt(n))!==-1){const o=e.charAt(n);var r=n;n++;while(n<e.length&&e.charAt(n)!==o){if(e.charAt(n)==="\\"){n++}n++}t.push(e.substring(r,n+1))}else{const i=e.charAt(n);t.push(i)}n++}return t}function nt(e,t,n){return Ge.exec(e.charAt(0))&&e!=="true"&&e!=="false"&&e!=="this"&&e!==n&&t!=="."}function rt(r,o,i){if(o[0]==="["){o.shift();let e=1;let t=" return (function("+i+"){ return (";let n=null;while(o.length>0){const s=o[0];if(s==="]"){e--;if(e===0){if(n===null){t=t+"true"}o.shift();t+=")})";try{const l=Tn(r,function(){return Function(t)()},function(){return true});l.source=t;return l}catch(e){ue(ee().body,"htmx:syntax:error",{error:e,source:t});return null}}}else if(s==="["){e++}if(nt(s,n,i)){t+="(("+i+"."+s+") ? ("+i+"."+s+") : (window."+s+"))"}else{t=t+s}n=o.shift()}}}function O(e,t){let n="";while(e.length>0&&!t.test(e[0])){n+=e.shift()}return n}function ot(e){let t;if(e.length>0&&Qe.test(e[0])){e.shift();t=O(e,et).trim();e.shift()}else{t=O(e,Ke)}return t}const it="input, textarea, select";function st(e,t,n){const r=[];const o=tt(t);do{O(o,Ye);const l=o.length;const c=O(o,/[,\[\s]/);if(c!==""){if(c==="every"){const u={trigger:"every"};O(o,Ye);u.pollInterval=d(O(o,/[,\[\s]/));O(o,Ye);var i=rt(e,o,"event");if(i){u.eventFilter=i}r.push(u)}else{const a={trigger:c};var i=rt(e,o,"event");if(i){a.eventFilter=i}O(o,Ye);while(o.length>0&&o[0]!==","){const f=o.shift();if(f==="changed"){a.changed=true}else if(f==="once"){a.once=true}else if(f==="consume"){a.consume=true}else if(f==="delay"&&o[0]===":"){o.shift();a.delay=d(O(o,Ke))}else if(f==="from"&&o[0]===":"){o.shift();if(Qe.test(o[0])){var s=ot(o)}else{var s=O(o,Ke);if(s==="closest"||s==="find"||s==="next"||s==="previous"){o.shift();const h=ot(o);if(h.length>0){s+=" "+h}}}a.from=s}else if(f==="target"&&o[0]===":"){o.shift();a.target=ot(o)}else if(f==="throttle"&&o[0]===":"){o.shift();a.throttle=d(O(o,Ke))}else if(f==="queue"&&o[0]===":"){o.shift();a.queue=O(o,Ke)}else if(f==="root"&&o[0]===":"){o.shift();a[f]=ot(o)}else if(f==="threshold"&&o[0]===":"){o.shift();a[f]=O(o,Ke)}else{ue(e,"htmx:syntax:error",{token:o.shift()})}O(o,Ye)}r.push(a)}}if(o.length===l){ue(e,"htmx:syntax:error",{token:o.shift()})}O(o,Ye)}while(o[0]===","&&o.shift());if(n){n[t]=r}return r}function lt(e){const t=f(e,"hx-trigger");let n=[];if(t){const r=Y.config.triggerSpecsCache;n=r&&r[t]||st(e,t,r)}if(n.length>0){return n}else if(h(e,"form")){return[{trigger:"submit"}]}else if(h(e,'input[type="button"], input[type="submit"]')){return[{trigger:"click"}]}else if(h(e,it)){return[{trigger:"change"}]}else{return[{trigger:"click"}]}}function ct(e){re(e).cancelled=true}function ut(e,t,n){const r=re(e);r.timeout=b().setTimeout(function(){if(ie(e)&&r.cancelled!==true){if(!gt(n,e,Ut("hx:poll:trigger",{triggerSpec:n,target:e}))){t(e)}ut(e,t,n)}},n.pollInterval)}function at(e){return location.hostname===e.hostname&&Q(e,"href")&&Q(e,"href").indexOf("#")!==0}function ft(e){return g(e,Y.config.disableSelector)}function ht(t,n,e){if(t instanceof HTMLAnchorElement&&at(t)&&(t.target===""||t.target==="_self")||t.tagName==="FORM"&&String(Q(t,"method")).toLowerCase()!=="dialog"){n.boosted=true;let r,o;if(t.tagName==="A"){r="get";o=Q(t,"href")}else{const i=Q(t,"method");r=i?i.toLowerCase():"get";o=Q(t,"action");if(o==null||o===""){o=location.href}if(r==="get"&&o.includes("?")){o=o.replace(/\?[^#]+/,"")}}e.forEach(function(e){mt(t,function(e,t){const n=le(e);if(ft(n)){y(n);return}fe(r,o,n,t)},n,e,true)})}}function dt(e,t){if(e.type==="submit"&&t.tagName==="FORM"){return true}else if(e.type==="click"){const n=t.closest('input[type="submit"], button');if(n&&n.form&&n.type==="submit"){return true}const r=t.closest("a");const o=/^#.+/;if(r&&r.href&&!o.test(r.getAttribute("href"))){return true}}return false}function pt(e,t){return re(e).boosted&&e instanceof HTMLAnchorElement&&t.type==="click"&&(t.ctrlKey||t.metaKey)}function gt(e,t,n){const r=e.eventFilter;if(r){try{return r.call(t,n)!==true}catch(e){const o=r.source;ue(ee().body,"htmx:eventFilter:error",{error:e,source:o});return true}}return false}function mt(l,c,e,u,a){const f=re(l);let t;if(u.from){t=m(l,u.from)}else{t=[l]}if(u.changed){if(!("lastValue"in f)){f.lastValue=new WeakMap}t.forEach(function(e){if(!f.lastValue.has(u)){f.lastValue.set(u,new WeakMap)}f.lastValue.get(u).set(e,e.value)})}oe(t,function(i){const s=function(e){if(!ie(l)){i.removeEventListener(u.trigger,s);return}if(pt(l,e)){return}if(a||dt(e,i)){e.preventDefault()}if(gt(u,l,e)){return}const t=re(e);t.triggerSpec=u;if(t.handledFor==null){t.handledFor=[]}if(t.handledFor.indexOf(l)<0){t.handledFor.push(l);if(u.consume){e.stopPropagation()}if(u.target&&e.target){if(!h(le(e.target),u.target)){return}}if(u.once){if(f.triggeredOnce){return}else{f.triggeredOnce=true}}if(u.changed){const n=e.target;const r=n.value;const o=f.lastValue.get(u);if(o.has(n)&&o.get(n)===r){return}o.set(n,r)}if(f.delayed){clearTimeout(f.delayed)}if(f.throttle){return}if(u.throttle>0){if(!f.throttle){ae(l,"htmx:trigger");c(l,e);f.throttle=b().setTimeout(function(){f.throttle=null},u.throttle)}}else if(u.delay>0){f.delayed=b().setTimeout(function(){ae(l,"htmx:trigger");c(l,e)},u.delay)}else{ae(l,"htmx:trigger");c(l,e)}}};if(e.listenerInfos==null){e.listenerInfos=[]}e.listenerInfos.push({trigger:u.trigger,listener:s,on:i});i.addEventListener(u.trigger,s)})}let yt=false;let xt=null;function bt(){if(!xt){xt=function(){yt=true};window.addEventListener("scroll",xt);window.addEventListener("resize",xt);setInterval(function(){if(yt){yt=false;oe(ee().querySelectorAll("[hx-trigger*='revealed'],[data-hx-trigger*='revealed']"),function(e){vt(e)})}},200)}}function vt(e){if(!s(e,"data-hx-revealed")&&B(e)){e.setAttribute("data-hx-revealed","true");const t=re(e);if(t.initHash){ae(e,"revealed")}else{e.addEventListener("htmx:afterProcessNode",function(){ae(e,"revealed")},{once:true})}}}function wt(e,t,n,r){const o=function(){if(!n.loaded){n.loaded=true;ae(e,"htmx:trigger");t(e)}};if(r>0){b().setTimeout(o,r)}else{o()}}function St(t,n,e){let i=false;oe(he,function(r){if(s(t,"hx-"+r)){const o=f(t,"hx-"+r);i=true;n.path=o;n.verb=r;e.forEach(function(e){Et(t,e,n,function(e,t){const n=le(e);if(ft(n)){y(n);return}fe(r,o,n,t)})})}});return i}function Et(r,e,t,n){if(e.trigger==="revealed"){bt();mt(r,n,t,e);vt(le(r))}else if(e.trigger==="intersect"){const o={};if(e.root){o.root=ce(r,e.root)}if(e.threshold){o.threshold=parseFloat(e.threshold)}const i=new IntersectionObserver(function(t){for(let e=0;e<t.length;e++){const n=t[e];if(n.isIntersecting){ae(r,"intersect");break}}},o);i.observe(le(r));mt(le(r),n,t,e)}else if(!t.firstInitCompleted&&e.trigger==="load"){if(!gt(e,r,Ut("load",{elt:r}))){wt(le(r),n,t,e.delay)}}else if(e.pollInterval>0){t.polling=true;ut(le(r),n,e)}else{mt(r,n,t,e)}}function Ct(e){const t=le(e);if(!t){return false}const n=t.attributes;for(let e=0;e<n.length;e++){const r=n[e].name;if(l(r,"hx-on:")||l(r,"data-hx-on:")||l(r,"hx-on-")||l(r,"data-hx-on-")){return true}}return false}const Ot=(new XPathEvaluator).createExpression('.//*[@*[ starts-with(name(), "hx-on:") or starts-with(name(), "data-hx-on:") or'+' starts-with(name(), "hx-on-") or starts-with(name(), "data-hx-on-") ]]');function Tt(e,t){if(Ct(e)){t.push(le(e))}const n=Ot.evaluate(e);let r=null;while(r=n.iterateNext())t.push(le(r))}function Ht(e){const t=[];if(e instanceof DocumentFragment){for(const n of e.childNodes){Tt(n,t)}}else{Tt(e,t)}return t}function Rt(e){if(e.querySelectorAll){const n=", [hx-boost] a, [data-hx-boost] a, a[hx-boost], a[data-hx-boost]";const r=[];for(const i of Object.keys($n)){const s=$n[i];if(s.getSelectors){var t=s.getSelectors();if(t){r.push(t)}}}const o=e.querySelectorAll(R+n+", form, [type='submit'],"+" [hx-ext], [data-hx-ext], [hx-trigger], [data-hx-trigger]"+r.flat().map(e=>", "+e).join(""));return o}else{return[]}}function qt(e){const t=Nt(e.target);const n=Lt(e);if(n){n.lastButtonClicked=t}}function At(e){const t=Lt(e);if(t){t.lastButtonClicked=null}}function Nt(e){return g(le(e),"button, input[type='submit']")}function It(e){return e.form||g(e,"form")}function Lt(e){const t=Nt(e.target);if(!t){return}const n=It(t);if(!n){return}return re(n)}function kt(e){e.addEventListener("click",qt);e.addEventListener("focusin",qt);e.addEventListener("focusout",At)}function Dt(t,e,n){const r=re(t);if(!Array.isArray(r.onHandlers)){r.onHandlers=[]}let o;const i=function(e){Tn(t,function(){if(ft(t)){return}if(!o){o=new Function("event",n)}o.call(t,e)})};t.addEventListener(e,i);r.onHandlers.push({event:e,listener:i})}function Pt(t){ke(t);for(let e=0;e<t.attributes.length;e++){const n=t.attributes[e].name;const r=t.attributes[e].value;if(l(n,"hx-on")||l(n,"data-hx-on")){const o=n.indexOf("-on")+3;const i=n.slice(o,o+1);if(i==="-"||i===":"){let e=n.slice(o+1);if(l(e,":")){e="htmx"+e}else if(l(e,"-")){e="htmx:"+e.slice(1)}else if(l(e,"htmx-")){e="htmx:"+e.slice(5)}Dt(t,e,r)}}}}function Mt(t){ae(t,"htmx:beforeProcessNode");const n=re(t);const e=lt(t);const r=St(t,n,e);if(!r){if(te(t,"hx-boost")==="true"){ht(t,n,e)}else if(s(t,"hx-trigger")){e.forEach(function(e){Et(t,e,n,function(){})})}}if(t.tagName==="FORM"||Q(t,"type")==="submit"&&s(t,"form")){kt(t)}n.firstInitCompleted=true;ae(t,"htmx:afterProcessNode")}function Ft(e){if(!(e instanceof Element)){return false}const t=re(e);const n=Le(e);if(t.initHash!==n){De(e);t.initHash=n;return true}return false}function Bt(e){e=E(e);if(ft(e)){y(e);return}const t=[];if(Ft(e)){t.push(e)}oe(Rt(e),function(e){if(ft(e)){y(e);return}if(Ft(e)){t.push(e)}});oe(Ht(e),Pt);oe(t,Mt)}function Xt(e){return e.replace(/([a-z0-9])([A-Z])/g,"$1-$2").toLowerCase()}function Ut(e,t){return new CustomEvent(e,{bubbles:true,cancelable:true,composed:true,detail:t})}function ue(e,t,n){ae(e,t,se({error:t},n))}function jt(e){return e==="htmx:afterProcessNode"}function Vt(e,t,n){oe(Kn(e,[],n),function(e){try{t(e)}catch(e){T(e)}})}function T(e){console.error(e)}function ae(e,t,n){e=E(e);if(n==null){n={}}n.elt=e;const r=Ut(t,n);if(Y.logger&&!jt(t)){Y.logger(e,t,n)}if(n.error){T(n.error+(n.target?", "+n.target:""));ae(e,"htmx:error",{errorInfo:n})}let o=e.dispatchEvent(r);const i=Xt(t);if(o&&i!==t){const s=Ut(i,r.detail);o=o&&e.dispatchEvent(s)}Vt(le(e),function(e){o=o&&(e.onEvent(t,r)!==false&&!r.defaultPrevented)});return o}let $t;function _t(e){$t=e;if(U()){sessionStorage.setItem("htmx-current-path-for-history",e)}}_t(location.pathname+location.search);function zt(){const e=ee().querySelector("[hx-history-elt],[data-hx-history-elt]");return e||ee().body}function Jt(t,e){if(!U()){return}const n=Gt(e);const r=ee().title;const o=window.scrollY;if(Y.config.historyCacheSize<=0){sessionStorage.removeItem("htmx-history-cache");return}t=j(t);const i=v(sessionStorage.getItem("htmx-history-cache"))||[];for(let e=0;e<i.length;e++){if(i[e].url===t){i.splice(e,1);break}}const s={url:t,content:n,title:r,scroll:o};ae(ee().body,"htmx:historyItemCreated",{item:s,cache:i});i.push(s);while(i.length>Y.config.historyCacheSize){i.shift()}while(i.length>0){try{sessionStorage.setItem("htmx-history-cache",JSON.stringify(i));break}catch(e){ue(ee().body,"htmx:historyCacheError",{cause:e,cache:i});i.shift()}}}function Kt(t){if(!U()){return null}t=j(t);const n=v(sessionStorage.getItem("htmx-history-cache"))||[];for(let e=0;e<n.length;e++){if(n[e].url===t){return n[e]}}return null}function Gt(e){const t=Y.config.requestClass;const n=e.cloneNode(true);oe(x(n,"."+t),function(e){S(e,t)});oe(x(n,"[data-disabled-by-htmx]"),function(e){e.removeAttribute("disabled")});return n.innerHTML}function Wt(){const e=zt();let t=$t;if(U()){t=sessionStorage.getItem("htmx-current-path-for-history")}t=t||location.pathname+location.search;const n=ee().querySelector('[hx-history="false" i],[data-hx-history="false" i]');if(!n){ae(ee().body,"htmx:beforeHistorySave",{path:t,historyElt:e});Jt(t,e)}if(Y.config.historyEnabled)history.replaceState({htmx:true},ee().title,location.href)}function Zt(e){if(Y.config.getCacheBusterParam){e=e.replace(/org\.htmx\.cache-buster=[^&]*&?/,"");if(Z(e,"&")||Z(e,"?")){e=e.slice(0,-1)}}if(Y.config.historyEnabled){history.pushState({htmx:true},"",e)}_t(e)}function Yt(e){if(Y.config.historyEnabled)history.replaceState({htmx:true},"",e);_t(e)}function Qt(e){oe(e,function(e){e.call(undefined)})}function en(e){const t=new XMLHttpRequest;const n={swapStyle:"innerHTML",swapDelay:0,settleDelay:0};const r={path:e,xhr:t,historyElt:zt(),swapSpec:n};t.open("GET",e,true);if(Y.config.historyRestoreAsHxRequest){t.setRequestHeader("HX-Request","true")}t.setRequestHeader("HX-History-Restore-Request","true");t.setRequestHeader("HX-Current-URL",location.href);t.onload=function(){if(this.status>=200&&this.status<400){r.response=this.response;ae(ee().body,"htmx:historyCacheMissLoad",r);C(r.historyElt,r.response,n,{contextElement:r.historyElt,historyRequest:true});_t(r.path);ae(ee().body,"htmx:historyRestore",{path:e,cacheMiss:true,serverResponse:r.response})}else{ue(ee().body,"htmx:historyCacheMissLoadError",r)}};if(ae(ee().body,"htmx:historyCacheMiss",r)){t.send()}}function tn(e){Wt();e=e||location.pathname+location.search;const t=Kt(e);if(t){const n={swapStyle:"innerHTML",swapDelay:0,settleDelay:0,scroll:t.scroll};const r={path:e,item:t,historyElt:zt(),swapSpec:n};if(ae(ee().body,"htmx:historyCacheHit",r)){C(r.historyElt,t.content,n,{contextElement:r.historyElt,title:t.title});_t(r.path);ae(ee().body,"htmx:historyRestore",r)}}else{if(Y.config.refreshOnHistoryMiss){Y.location.reload(true)}else{en(e)}}}function nn(e){let t=ve(e,"hx-indicator");if(t==null){t=[e]}oe(t,function(e){const t=re(e);t.requestCount=(t.requestCount||0)+1;w(e,Y.config.requestClass)});return t}function rn(e){let t=ve(e,"hx-disabled-elt");if(t==null){t=[]}oe(t,function(e){const t=re(e);t.requestCount=(t.requestCount||0)+1;if(!e.hasAttribute("disabled")){e.setAttribute("disabled","");e.setAttribute("data-disabled-by-htmx","")}});return t}function on(e,t){oe(e.concat(t),function(e){const t=re(e);t.requestCount=(t.requestCount||1)-1});oe(e,function(e){const t=re(e);if(t.requestCount===0){S(e,Y.config.requestClass)}});oe(t,function(e){const t=re(e);if(t.requestCount===0&&e.hasAttribute("data-disabled-by-htmx")){e.removeAttribute("disabled");e.removeAttribute("data-disabled-by-htmx")}})}function sn(t,n){for(let e=0;e<t.length;e++){const r=t[e];if(r.isSameNode(n)){return true}}return false}function ln(e){const t=e;if(t.name===""||t.name==null||t.disabled||g(t,"fieldset[disabled]")){return false}if(t.type==="button"||t.type==="submit"||t.tagName==="image"||t.tagName==="reset"||t.tagName==="file"){return false}if(t.type==="checkbox"||t.type==="radio"){return t.checked}return true}function cn(t,e,n){if(t!=null&&e!=null){if(Array.isArray(e)){e.forEach(function(e){n.append(t,e)})}else{n.append(t,e)}}}function un(t,n,r){if(t!=null&&n!=null){let e=r.getAll(t);if(Array.isArray(n)){e=e.filter(e=>n.indexOf(e)<0)}else{e=e.filter(e=>e!==n)}r.delete(t);oe(e,e=>r.append(t,e))}}function an(e){if(e instanceof HTMLSelectElement&&e.multiple){return F(e.querySelectorAll("option:checked")).map(function(e){return e.value})}if(e instanceof HTMLInputElement&&e.files){return F(e.files)}return e.value}function fn(t,n,r,e,o){if(e==null||sn(t,e)){return}else{t.push(e)}if(ln(e)){const i=Q(e,"name");cn(i,an(e),n);if(o){hn(e,r)}}if(e instanceof HTMLFormElement){oe(e.elements,function(e){if(t.indexOf(e)>=0){un(e.name,an(e),n)}else{t.push(e)}if(o){hn(e,r)}});new FormData(e).forEach(function(e,t){if(e instanceof File&&e.name===""){return}cn(t,e,n)})}}function hn(e,t){const n=e;if(n.willValidate){ae(n,"htmx:validation:validate");if(!n.checkValidity()){if(ae(n,"htmx:validation:failed",{message:n.validationMessage,validity:n.validity})&&!t.length&&Y.config.reportValidityOfForms){n.reportValidity()}t.push({elt:n,message:n.validationMessage,validity:n.validity})}}}function dn(n,e){for(const t of e.keys()){n.delete(t)}e.forEach(function(e,t){n.append(t,e)});return n}function pn(e,t){const n=[];const r=new FormData;const o=new FormData;const i=[];const s=re(e);if(s.lastButtonClicked&&!ie(s.lastButtonClicked)){s.lastButtonClicked=null}let l=e instanceof HTMLFormElement&&e.noValidate!==true||f(e,"hx-validate")==="true";if(s.lastButtonClicked){l=l&&s.lastButtonClicked.formNoValidate!==true}if(t!=="get"){fn(n,o,i,It(e),l)}fn(n,r,i,e,l);if(s.lastButtonClicked||e.tagName==="BUTTON"||e.tagName==="INPUT"&&Q(e,"type")==="submit"){const u=s.lastButtonClicked||e;const a=Q(u,"name");cn(a,u.value,o)}const c=ve(e,"hx-include");oe(c,function(e){fn(n,r,i,le(e),l);if(!h(e,"form")){oe(p(e).querySelectorAll(it),function(e){fn(n,r,i,e,l)})}});dn(r,o);return{errors:i,formData:r,values:Mn(r)}}function gn(e,t,n){if(e!==""){e+="&"}if(String(n)==="[object Object]"){n=JSON.stringify(n)}const r=encodeURIComponent(n);e+=encodeURIComponent(t)+"="+r;return e}function mn(e){e=Dn(e);let n="";e.forEach(function(e,t){n=gn(n,t,e)});return n}function yn(e,t,n){const r={"HX-Request":"true","HX-Trigger":Q(e,"id"),"HX-Trigger-Name":Q(e,"name"),"HX-Target":f(t,"id"),"HX-Current-URL":location.href};On(e,"hx-headers",false,r);if(n!==undefined){r["HX-Prompt"]=n}if(re(e).boosted){r["HX-Boosted"]="true"}return r}function xn(n,e){const t=te(e,"hx-params");if(t){if(t==="none"){return new FormData}else if(t==="*"){return n}else if(t.indexOf("not ")===0){oe(t.slice(4).split(","),function(e){e=e.trim();n.delete(e)});return n}else{const r=new FormData;oe(t.split(","),function(t){t=t.trim();if(n.has(t)){n.getAll(t).forEach(function(e){r.append(t,e)})}});return r}}else{return n}}function bn(e){return!!Q(e,"href")&&Q(e,"href").indexOf("#")>=0}function vn(e,t){const n=t||te(e,"hx-swap");const r={swapStyle:re(e).boosted?"innerHTML":Y.config.defaultSwapStyle,swapDelay:Y.config.defaultSwapDelay,settleDelay:Y.config.defaultSettleDelay};if(Y.config.scrollIntoViewOnBoost&&re(e).boosted&&!bn(e)){r.show="top"}if(n){const s=X(n);if(s.length>0){for(let e=0;e<s.length;e++){const l=s[e];if(l.indexOf("swap:")===0){r.swapDelay=d(l.slice(5))}else if(l.indexOf("settle:")===0){r.settleDelay=d(l.slice(7))}else if(l.indexOf("transition:")===0){r.transition=l.slice(11)==="true"}else if(l.indexOf("ignoreTitle:")===0){r.ignoreTitle=l.slice(12)==="true"}else if(l.indexOf("scroll:")===0){const c=l.slice(7);var o=c.split(":");const u=o.pop();var i=o.length>0?o.join(":"):null;r.scroll=u;r.scrollTarget=i}else if(l.indexOf("show:")===0){const a=l.slice(5);var o=a.split(":");const f=o.pop();var i=o.length>0?o.join(":"):null;r.show=f;r.showTarget=i}else if(l.indexOf("focus-scroll:")===0){const h=l.slice("focus-scroll:".length);r.focusScroll=h=="true"}else if(e==0){r.swapStyle=l}else{T("Unknown modifier in hx-swap: "+l)}}}}return r}function wn(e){return te(e,"hx-encoding")==="multipart/form-data"||h(e,"form")&&Q(e,"enctype")==="multipart/form-data"}function Sn(t,n,r){let o=null;Vt(n,function(e){if(o==null){o=e.encodeParameters(t,r,n)}});if(o!=null){return o}else{if(wn(n)){return dn(new FormData,Dn(r))}else{return mn(r)}}}function En(e){return{tasks:[],elts:[e]}}function Cn(e,t){const n=e[0];const r=e[e.length-1];if(t.scroll){var o=null;if(t.scrollTarget){o=le(ce(n,t.scrollTarget))}if(t.scroll==="top"&&(n||o)){o=o||n;o.scrollTop=0}if(t.scroll==="bottom"&&(r||o)){o=o||r;o.scrollTop=o.scrollHeight}if(typeof t.scroll==="number"){b().setTimeout(function(){window.scrollTo(0,t.scroll)},0)}}if(t.show){var o=null;if(t.showTarget){let e=t.showTarget;if(t.showTarget==="window"){e="body"}o=le(ce(n,e))}if(t.show==="top"&&(n||o)){o=o||n;o.scrollIntoView({block:"start",behavior:Y.config.scrollBehavior})}if(t.show==="bottom"&&(r||o)){o=o||r;o.scrollIntoView({block:"end",behavior:Y.config.scrollBehavior})}}}function On(r,e,o,i,s){if(i==null){i={}}if(r==null){return i}const l=f(r,e);if(l){let e=l.trim();let t=o;if(e==="unset"){return null}if(e.indexOf("javascript:")===0){e=e.slice(11);t=true}else if(e.indexOf("js:")===0){e=e.slice(3);t=true}if(e.indexOf("{")!==0){e="{"+e+"}"}let n;if(t){n=Tn(r,function(){if(s){return Function("event","return ("+e+")").call(r,s)}else{return Function("return ("+e+")").call(r)}},{})}else{n=v(e)}for(const c of Object.keys(n)){if(i[c]==null){i[c]=n[c]}}}return On(le(u(r)),e,o,i,s)}function Tn(e,t,n){if(Y.config.allowEval){return t()}else{ue(e,"htmx:evalDisallowedError");return n}}function Hn(e,t,n){return On(e,"hx-vars",true,n,t)}function Rn(e,t,n){return On(e,"hx-vals",false,n,t)}function qn(e,t){return se(Hn(e,t),Rn(e,t))}function An(t,n,r){if(r!==null){try{t.setRequestHeader(n,r)}catch(e){t.setRequestHeader(n,encodeURIComponent(r));t.setRequestHeader(n+"-URI-AutoEncoded","true")}}}function Nn(t){if(t.responseURL){try{const e=new URL(t.responseURL);return e.pathname+e.search}catch(e){ue(ee().body,"htmx:badResponseUrl",{url:t.responseURL})}}}function H(e,t){return e.getResponseHeader(t)!==null}function In(t,n,r){t=t.toLowerCase();if(r){if(r instanceof Element||typeof r==="string"){return fe(t,n,null,null,{targetOverride:E(r)||be,returnPromise:true})}else{let e=E(r.target);if(r.target&&!e||r.source&&!e&&!E(r.source)){e=be}return fe(t,n,E(r.source),r.event,{handler:r.handler,headers:r.headers,values:r.values,targetOverride:e,swapOverride:r.swap,select:r.select,returnPromise:true,push:r.push,replace:r.replace,selectOOB:r.selectOOB})}}else{return fe(t,n,null,null,{returnPromise:true})}}function Ln(e){const t=[];while(e){t.push(e);e=e.parentElement}return t}function kn(e,t,n){const r=new URL(t,location.protocol!=="about:"?location.href:window.origin);const o=location.protocol!=="about:"?location.origin:window.origin;const i=o===r.origin;if(Y.config.selfRequestsOnly){if(!i){return false}}return ae(e,"htmx:validateUrl",se({url:r,sameHost:i},n))}function Dn(e){if(e instanceof FormData)return e;const t=new FormData;for(const n of Object.keys(e)){if(e[n]&&typeof e[n].forEach==="function"){e[n].forEach(function(e){t.append(n,e)})}else if(typeof e[n]==="object"&&!(e[n]instanceof Blob)){t.append(n,JSON.stringify(e[n]))}else{t.append(n,e[n])}}return t}function Pn(r,o,e){return new Proxy(e,{get:function(t,e){if(typeof e==="number")return t[e];if(e==="length")return t.length;if(e==="push"){return function(e){t.push(e);r.append(o,e)}}if(typeof t[e]==="function"){return function(){t[e].apply(t,arguments);r.delete(o);t.forEach(function(e){r.append(o,e)})}}if(t[e]&&t[e].length===1){return t[e][0]}else{return t[e]}},set:function(e,t,n){e[t]=n;r.delete(o);e.forEach(function(e){r.append(o,e)});return true}})}function Mn(o){return new Proxy(o,{get:function(e,t){if(typeof t==="symbol"){const r=Reflect.get(e,t);if(typeof r==="function"){return function(){return r.apply(o,arguments)}}else{return r}}if(t==="toJSON"){return()=>Object.fromEntries(o)}if(t in e){if(typeof e[t]==="function"){return function(){return o[t].apply(o,arguments)}}}const n=o.getAll(t);if(n.length===0){return undefined}else if(n.length===1){return n[0]}else{return Pn(e,t,n)}},set:function(t,n,e){if(typeof n!=="string"){return false}t.delete(n);if(e&&typeof e.forEach==="function"){e.forEach(function(e){t.append(n,e)})}else if(typeof e==="object"&&!(e instanceof Blob)){t.append(n,JSON.stringify(e))}else{t.append(n,e)}return true},deleteProperty:function(e,t){if(typeof t==="string"){e.delete(t)}return true},ownKeys:function(e){return Reflect.ownKeys(Object.fromEntries(e))},getOwnPropertyDescriptor:function(e,t){return Reflect.getOwnPropertyDescriptor(Object.fromEntries(e),t)}})}function fe(t,n,r,o,i,P){let s=null;let l=null;i=i!=null?i:{};if(i.returnPromise&&typeof Promise!=="undefined"){var e=new Promise(function(e,t){s=e;l=t})}if(r==null){r=ee().body}const M=i.handler||Vn;const F=i.select||null;if(!ie(r)){ne(s);return e}const c=i.targetOverride||le(Se(r));if(c==null||c==be){ue(r,"htmx:targetError",{target:te(r,"hx-target")});ne(l);return e}let u=re(r);const a=u.lastButtonClicked;if(a){const A=Q(a,"formaction");if(A!=null){n=A}const N=Q(a,"formmethod");if(N!=null){if(he.includes(N.toLowerCase())){t=N}else{ne(s);return e}}}const f=te(r,"hx-confirm");if(P===undefined){const K=function(e){return fe(t,n,r,o,i,!!e)};const G={target:c,elt:r,path:n,verb:t,triggeringEvent:o,etc:i,issueRequest:K,question:f};if(ae(r,"htmx:confirm",G)===false){ne(s);return e}}let h=r;let d=te(r,"hx-sync");let p=null;let B=false;if(d){const I=d.split(":");const L=I[0].trim();if(L==="this"){h=we(r,"hx-sync")}else{h=le(ce(r,L))}d=(I[1]||"drop").trim();u=re(h);if(d==="drop"&&u.xhr&&u.abortable!==true){ne(s);return e}else if(d==="abort"){if(u.xhr){ne(s);return e}else{B=true}}else if(d==="replace"){ae(h,"htmx:abort")}else if(d.indexOf("queue")===0){const W=d.split(" ");p=(W[1]||"last").trim()}}if(u.xhr){if(u.abortable){ae(h,"htmx:abort")}else{if(p==null){if(o){const k=re(o);if(k&&k.triggerSpec&&k.triggerSpec.queue){p=k.triggerSpec.queue}}if(p==null){p="last"}}if(u.queuedRequests==null){u.queuedRequests=[]}if(p==="first"&&u.queuedRequests.length===0){u.queuedRequests.push(function(){fe(t,n,r,o,i)})}else if(p==="all"){u.queuedRequests.push(function(){fe(t,n,r,o,i)})}else if(p==="last"){u.queuedRequests=[];u.queuedRequests.push(function(){fe(t,n,r,o,i)})}ne(s);return e}}const g=new XMLHttpRequest;u.xhr=g;u.abortable=B;const m=function(){u.xhr=null;u.abortable=false;if(u.queuedRequests!=null&&u.queuedRequests.length>0){const e=u.queuedRequests.shift();e()}};const X=te(r,"hx-prompt");if(X){var y=prompt(X);if(y===null||!ae(r,"htmx:prompt",{prompt:y,target:c})){ne(s);m();return e}}if(f&&!P){if(!confirm(f)){ne(s);m();return e}}let x=yn(r,c,y);if(t!=="get"&&!wn(r)){x["Content-Type"]="application/x-www-form-urlencoded"}if(i.headers){x=se(x,i.headers)}const U=pn(r,t);let b=U.errors;const j=U.formData;if(i.values){dn(j,Dn(i.values))}const V=Dn(qn(r,o));const v=dn(j,V);let w=xn(v,r);if(Y.config.getCacheBusterParam&&t==="get"){w.set("org.htmx.cache-buster",Q(c,"id")||"true")}if(n==null||n===""){n=location.href}const S=On(r,"hx-request");const $=re(r).boosted;let E=Y.config.methodsThatUseUrlParams.indexOf(t)>=0;const C={boosted:$,useUrlParams:E,formData:w,parameters:Mn(w),unfilteredFormData:v,unfilteredParameters:Mn(v),headers:x,elt:r,target:c,verb:t,errors:b,withCredentials:i.credentials||S.credentials||Y.config.withCredentials,timeout:i.timeout||S.timeout||Y.config.timeout,path:n,triggeringEvent:o};if(!ae(r,"htmx:configRequest",C)){ne(s);m();return e}n=C.path;t=C.verb;x=C.headers;w=Dn(C.parameters);b=C.errors;E=C.useUrlParams;if(b&&b.length>0){ae(r,"htmx:validation:halted",C);ne(s);m();return e}const _=n.split("#");const z=_[0];const O=_[1];let T=n;if(E){T=z;const Z=!w.keys().next().done;if(Z){if(T.indexOf("?")<0){T+="?"}else{T+="&"}T+=mn(w);if(O){T+="#"+O}}}if(!kn(r,T,C)){ue(r,"htmx:invalidPath",C);ne(l);m();return e}g.open(t.toUpperCase(),T,true);g.overrideMimeType("text/html");g.withCredentials=C.withCredentials;g.timeout=C.timeout;if(S.noHeaders){}else{for(const D of Object.keys(x)){An(g,D,x[D])}}const H={xhr:g,target:c,requestConfig:C,etc:i,boosted:$,select:F,pathInfo:{requestPath:n,finalRequestPath:T,responsePath:null,anchor:O}};g.onload=function(){try{const t=Ln(r);H.pathInfo.responsePath=Nn(g);M(r,H);if(H.keepIndicators!==true){on(R,q)}ae(r,"htmx:afterRequest",H);ae(r,"htmx:afterOnLoad",H);if(!ie(r)){let e=null;while(t.length>0&&e==null){const n=t.shift();if(ie(n)){e=n}}if(e){ae(e,"htmx:afterRequest",H);ae(e,"htmx:afterOnLoad",H)}}ne(s)}catch(e){ue(r,"htmx:onLoadError",se({error:e},H));throw e}finally{m()}};g.onerror=function(){on(R,q);ue(r,"htmx:afterRequest",H);ue(r,"htmx:sendError",H);ne(l);m()};g.onabort=function(){on(R,q);ue(r,"htmx:afterRequest",H);ue(r,"htmx:sendAbort",H);ne(l);m()};g.ontimeout=function(){on(R,q);ue(r,"htmx:afterRequest",H);ue(r,"htmx:timeout",H);ne(l);m()};if(!ae(r,"htmx:beforeRequest",H)){ne(s);m();return e}var R=nn(r);var q=rn(r);oe(["loadstart","loadend","progress","abort"],function(t){oe([g,g.upload],function(e){e.addEventListener(t,function(e){ae(r,"htmx:xhr:"+t,{lengthComputable:e.lengthComputable,loaded:e.loaded,total:e.total})})})});ae(r,"htmx:beforeSend",H);const J=E?null:Sn(g,r,w);g.send(J);return e}function Fn(e,t){const n=t.xhr;let r=null;let o=null;if(H(n,"HX-Push")){r=n.getResponseHeader("HX-Push");o="push"}else if(H(n,"HX-Push-Url")){r=n.getResponseHeader("HX-Push-Url");o="push"}else if(H(n,"HX-Replace-Url")){r=n.getResponseHeader("HX-Replace-Url");o="replace"}if(r){if(r==="false"){return{}}else{return{type:o,path:r}}}const i=t.pathInfo.finalRequestPath;const s=t.pathInfo.responsePath;const l=t.etc.push||te(e,"hx-push-url");let c=t.etc.replace||te(e,"hx-replace-url");if(c==="false")c=null;const u=re(e).boosted;let a=null;let f=null;if(l){a="push";f=l}else if(c){a="replace";f=c}else if(u){a="push";f=s||i}if(f){if(f==="false"){return{}}if(f==="true"){f=s||i}if(t.pathInfo.anchor&&f.indexOf("#")===-1){f=f+"#"+t.pathInfo.anchor}return{type:a,path:f}}else{return{}}}function Bn(e,t){var n=new RegExp(e.code);return n.test(t.toString(10))}function Xn(e){for(var t=0;t<Y.config.responseHandling.length;t++){var n=Y.config.responseHandling[t];if(Bn(n,e.status)){return n}}return{swap:false}}function Un(e){if(e){const t=a("title");if(t){t.textContent=e}else{window.document.title=e}}}function jn(e,t){if(t==="this"){return e}const n=le(ce(e,t));if(n==null){ue(e,"htmx:targetError",{target:t});throw new Error(`Invalid re-target ${t}`)}return n}function Vn(t,e){const n=e.xhr;let r=e.target;const o=e.etc;const i=e.select;if(!ae(t,"htmx:beforeOnLoad",e))return;if(H(n,"HX-Trigger")){ze(n,"HX-Trigger",t)}if(H(n,"HX-Location")){let e=n.getResponseHeader("HX-Location");var s={};if(e.indexOf("{")===0){s=v(e);e=s.path;delete s.path}s.push=s.push??"true";In("get",e,s);return}const l=H(n,"HX-Refresh")&&n.getResponseHeader("HX-Refresh")==="true";if(H(n,"HX-Redirect")){e.keepIndicators=true;Y.location.href=n.getResponseHeader("HX-Redirect");l&&Y.location.reload();return}if(l){e.keepIndicators=true;Y.location.reload();return}const c=Fn(t,e);const u=Xn(n);const a=u.swap;let f=!!u.error;let h=Y.config.ignoreTitle||u.ignoreTitle;let d=u.select;if(u.target){e.target=jn(t,u.target)}var p=o.swapOverride;if(p==null&&u.swapOverride){p=u.swapOverride}if(H(n,"HX-Retarget")){e.target=jn(t,n.getResponseHeader("HX-Retarget"))}if(H(n,"HX-Reswap")){p=n.getResponseHeader("HX-Reswap")}var g=n.response;var m=se({shouldSwap:a,serverResponse:g,isError:f,ignoreTitle:h,selectOverride:d,swapOverride:p},e);if(u.event&&!ae(r,u.event,m))return;if(!ae(r,"htmx:beforeSwap",m))return;r=m.target;g=m.serverResponse;f=m.isError;h=m.ignoreTitle;d=m.selectOverride;p=m.swapOverride;e.target=r;e.failed=f;e.successful=!f;if(m.shouldSwap){if(n.status===286){ct(t)}Vt(t,function(e){g=e.transformResponse(g,n,t)});if(c.type){Wt()}var y=vn(t,p);if(!y.hasOwnProperty("ignoreTitle")){y.ignoreTitle=h}w(r,Y.config.swappingClass);if(i){d=i}if(H(n,"HX-Reselect")){d=n.getResponseHeader("HX-Reselect")}const x=o.selectOOB||te(t,"hx-select-oob");const b=te(t,"hx-select");C(r,g,y,{select:d==="unset"?null:d||b,selectOOB:x,eventInfo:e,anchor:e.pathInfo.anchor,contextElement:t,afterSwapCallback:function(){if(H(n,"HX-Trigger-After-Swap")){let e=t;if(!ie(t)){e=ee().body}ze(n,"HX-Trigger-After-Swap",e)}},afterSettleCallback:function(){if(H(n,"HX-Trigger-After-Settle")){let e=t;if(!ie(t)){e=ee().body}ze(n,"HX-Trigger-After-Settle",e)}},beforeSwapCallback:function(){if(c.type){ae(ee().body,"htmx:beforeHistoryUpdate",se({history:c},e));if(c.type==="push"){Zt(c.path);ae(ee().body,"htmx:pushedIntoHistory",{path:c.path})}else{Yt(c.path);ae(ee().body,"htmx:replacedInHistory",{path:c.path})}}}})}if(f){ue(t,"htmx:responseError",se({error:"Response Status Error Code "+n.status+" from "+e.pathInfo.requestPath},e))}}const $n={};function _n(){return{init:function(e){return null},getSelectors:function(){return null},onEvent:function(e,t){return true},transformResponse:function(e,t,n){return e},isInlineSwap:function(e){return false},handleSwap:function(e,t,n,r){return false},encodeParameters:function(e,t,n){return null}}}function zn(e,t){if(t.init){t.init(n)}$n[e]=se(_n(),t)}function Jn(e){delete $n[e]}function Kn(e,n,r){if(n==undefined){n=[]}if(e==undefined){return n}if(r==undefined){r=[]}const t=f(e,"hx-ext");if(t){oe(t.split(","),function(e){e=e.replace(/ /g,"");if(e.slice(0,7)=="ignore:"){r.push(e.slice(7));return}if(r.indexOf(e)<0){const t=$n[e];if(t&&n.indexOf(t)<0){n.push(t)}}})}return Kn(le(u(e)),n,r)}var Gn=false;ee().addEventListener("DOMContentLoaded",function(){Gn=true});function Wn(e){if(Gn||ee().readyState==="complete"){e()}else{ee().addEventListener("DOMContentLoaded",e)}}function Zn(){if(Y.config.includeIndicatorStyles!==false){const e=Y.config.inlineStyleNonce?` nonce="${Y.config.inlineStyleNonce}"`:"";const t=Y.config.indicatorClass;const n=Y.config.requestClass;ee().head.insertAdjacentHTML("beforeend",`<style${e}>`+`.${t}{opacity:0;visibility: hidden} `+`.${n} .${t}, .${n}.${t}{opacity:1;visibility: visible;transition: opacity 200ms ease-in}`+"</style>")}}function Yn(){const e=ee().querySelector('meta[name="htmx-config"]');if(e){return v(e.content)}else{return null}}function Qn(){const e=Yn();if(e){Y.config=se(Y.config,e)}}Wn(function(){Qn();Zn();let e=ee().body;Bt(e);const t=ee().querySelectorAll("[hx-trigger='restored'],[data-hx-trigger='restored']");e.addEventListener("htmx:abort",function(e){const t=e.detail.elt||e.target;const n=re(t);if(n&&n.xhr){n.xhr.abort()}});const n=window.onpopstate?window.onpopstate.bind(window):null;window.onpopstate=function(e){if(e.state&&e.state.htmx){tn();oe(t,function(e){ae(e,"htmx:restored",{document:ee(),triggerEvent:ae})})}else{if(n){n(e)}}};b().setTimeout(function(){ae(e,"htmx:load",{});e=null},0)});return Y}();
;
// ==== vendor/idiomorph-ext.min.js
var Idiomorph=function(){"use strict";const e=()=>{};const n={morphStyle:"outerHTML",callbacks:{beforeNodeAdded:e,afterNodeAdded:e,beforeNodeMorphed:e,afterNodeMorphed:e,beforeNodeRemoved:e,afterNodeRemoved:e,beforeAttributeUpdated:e},head:{style:"merge",shouldPreserve:e=>e.getAttribute("im-preserve")==="true",shouldReAppend:e=>e.getAttribute("im-re-append")==="true",shouldRemove:e,afterHeadMorphed:e},restoreFocus:true};function t(e,t,n={}){const r=u(e);const o=f(t);const i=d(r,o,n);return c(i,r,o,e=>{const t=a(e,()=>{if(e.morphStyle==="innerHTML"){s(e,r,o);return Array.from(r.childNodes)}else{return l(e,r,o)}});e.pantry.remove();return t})}function l(e,t,n){const r=f(t);s(e,r,n,t,t.nextSibling);return Array.from(r.childNodes)}function a(e,t){if(!e.config.restoreFocus)return t();let n=e.doc.activeElement;if(!(g.inputElement(n)||g.textAreaElement(n))){return t()}const{id:r,selectionStart:o,selectionEnd:i}=n;const l=t();if(r&&r!==e.doc.activeElement?.getAttribute("id")){n=e.target.querySelector(`[id="${CSS.escape(r)}"]`);n?.focus()}if(n&&!n.selectionEnd&&i){try{n.setSelectionRange(o,i)}catch{}}return l}const s=function(){function e(e,t,n,r=null,o=null){if(g.templateElement(t)&&g.templateElement(n)){t=t.content;n=n.content}r||=t.firstChild;for(const i of n.childNodes){if(r&&r!=o){const a=f(e,i,r,o);if(a){if(a!==r){m(e,r,a)}b(a,i,e);r=a.nextSibling;continue}}if(g.element(i)){const s=i.getAttribute("id");if(e.persistentIds.has(s)){const c=p(t,s,r,e);b(c,i,e);r=c.nextSibling;continue}}const l=u(t,i,r,e);if(l){r=l.nextSibling}}while(r&&r!=o){const d=r;r=r.nextSibling;h(e,d)}}function u(e,t,n,r){if(r.callbacks.beforeNodeAdded(t)===false)return null;if(r.idMap.has(t)){const o=r.doc.createElementNS(t.namespaceURI,t.localName);e.insertBefore(o,n);b(o,t,r);r.callbacks.afterNodeAdded(o);return o}else{const i=r.doc.importNode(t,true);e.insertBefore(i,n);r.callbacks.afterNodeAdded(i);return i}}const f=function(){function e(e,t,n,r){let o=null;let i=t.nextSibling;let l=0;let a=n;while(a&&a!=r){if(c(a,t)){if(s(e,a,t)){return a}if(o===null){if(!e.idMap.has(a)){o=a}}}if(o===null&&i&&c(a,i)){l++;i=i.nextSibling;if(l>=2){o=undefined}}if(e.activeElementAndParents.includes(a))break;a=a.nextSibling}return o||null}function s(e,t,n){let r=e.idMap.get(t);let o=e.idMap.get(n);if(!o||!r)return false;for(const i of r){if(o.has(i)){return true}}return false}function c(e,t){const n=e;const r=t;return n.nodeType===r.nodeType&&n.tagName===r.tagName&&(!n.getAttribute?.("id")||n.getAttribute?.("id")===r.getAttribute?.("id"))}return e}();function h(e,t){if(t===e.pantry)return;if(e.idMap.has(t)){a(e.pantry,t,null)}else{if(e.callbacks.beforeNodeRemoved(t)===false)return;t.parentNode?.removeChild(t);e.callbacks.afterNodeRemoved(t)}}function m(t,e,n){let r=e;while(r&&r!==n){let e=r;r=r.nextSibling;h(t,e)}return r}function p(e,t,n,r){const o=`[id="${CSS.escape(t)}"]`;const i=r.target.getAttribute?.("id")===t&&r.target||r.target.querySelector(o)||r.pantry.querySelector(o);l(i,r);a(e,i,n);return i}function l(t,n){const r=t.getAttribute("id");while(t=t.parentNode){let e=n.idMap.get(t);if(e){e.delete(r);if(!e.size){n.idMap.delete(t)}}}}function a(t,n,r){if(t.moveBefore){try{t.moveBefore(n,r)}catch(e){t.insertBefore(n,r)}}else{t.insertBefore(n,r)}}return e}();const b=function(){function e(e,t,n){if(n.ignoreActive&&e===n.doc.activeElement){return null}if(n.callbacks.beforeNodeMorphed(e,t)===false){return e}if(g.headElement(e)&&n.head.style==="none"){}else if(g.headElement(e)&&n.head.style!=="morph"){h(e,t,n)}else{r(e,t,n);if(!f(e,n)){s(n,e,t)}}n.callbacks.afterNodeMorphed(e,t);return e}function r(e,t,n){let r=t.nodeType;if(r===1){const o=e;const i=t;const l=o.attributes;const a=i.attributes;for(const s of a){if(o.getAttribute(s.name)===s.value){continue}if(u(s.name,o,"update",n)){continue}o.setAttributeNode(s.cloneNode())}for(let e=l.length-1;0<=e;e--){const c=l[e];if(!c)continue;if(!i.hasAttribute(c.name)){if(u(c.name,o,"remove",n)){continue}o.removeAttribute(c.name)}}if(!f(o,n)){d(o,i,n)}}if(r===8||r===3){if(e.nodeValue!==t.nodeValue){e.nodeValue=t.nodeValue}}}function d(n,r,o){if(g.inputElement(n)&&g.inputElement(r)&&r.type!=="file"){let e=r.value;let t=n.value;i(n,r,"checked",o);i(n,r,"disabled",o);if(!r.hasAttribute("value")){if(!u("value",n,"remove",o)){n.value="";n.removeAttribute("value")}}else if(t!==e){if(!u("value",n,"update",o)){n.setAttribute("value",e);n.value=e}}}else if(g.optionElement(n)&&g.optionElement(r)){i(n,r,"selected",o)}else if(g.textAreaElement(n)&&g.textAreaElement(r)){let e=r.value;let t=n.value;if(u("value",n,"update",o)){return}if(e!==t){n.value=e}if(n.firstChild&&n.firstChild.nodeValue!==e){n.firstChild.nodeValue=e}}}function i(e,t,n,r){const o=t[n],i=e[n];if(o!==i){const l=u(n,e,"update",r);if(!l){e[n]=t[n]}if(o){if(!l){e.setAttribute(n,"")}}else{if(!u(n,e,"remove",r)){e.removeAttribute(n)}}}}function u(e,t,n,r){if(e==="value"&&r.ignoreActiveValue&&t===r.doc.activeElement){return true}return r.callbacks.beforeAttributeUpdated(e,t,n)===false}function f(e,t){return!!t.ignoreActiveValue&&e===t.doc.activeElement&&e!==t.doc.body}return e}();function c(t,e,n,r){if(t.head.block&&t.head.style!=="none"){const o=e.querySelector("head");const i=n.querySelector("head");if(o&&i){const l=h(o,i,t);return Promise.all(l).then(()=>{const e=Object.assign(t,{head:{block:false,style:"none"}});return r(e)})}}return r(t)}function h(e,t,r){let o=[];let i=[];let l=[];let a=[];let s=new Map;for(const n of t.children){s.set(n.outerHTML,n)}for(const d of e.children){let e=s.has(d.outerHTML);let t=r.head.shouldReAppend(d);let n=r.head.shouldPreserve(d);if(e||n){if(t){i.push(d)}else{s.delete(d.outerHTML);l.push(d)}}else{if(r.head.style==="append"){if(t){i.push(d);a.push(d)}}else{if(r.head.shouldRemove(d)!==false){i.push(d)}}}}a.push(...s.values());let c=[];for(const u of a){let n=r.doc.createRange().createContextualFragment(u.outerHTML).firstChild;if(r.callbacks.beforeNodeAdded(n)!==false){if("href"in n&&n.href||"src"in n&&n.src){let t;let e=new Promise(function(e){t=e});n.addEventListener("load",function(){t()});c.push(e)}e.appendChild(n);r.callbacks.afterNodeAdded(n);o.push(n)}}for(const f of i){if(r.callbacks.beforeNodeRemoved(f)!==false){e.removeChild(f);r.callbacks.afterNodeRemoved(f)}}r.head.afterHeadMorphed(e,{added:o,kept:l,removed:i});return c}const d=function(){function e(e,t,n){const{persistentIds:r,idMap:o}=f(e,t);const i=c(n);const l=i.morphStyle||"outerHTML";if(!["innerHTML","outerHTML"].includes(l)){throw`Do not understand how to morph style ${l}`}if(l==="innerHTML"&&!e.append){throw`Cannot morph the innerHTML of a ${e.nodeName} node, as it cannot have children`}const a=i.head.style||"merge";if(!["merge","append","morph","none"].includes(a)){throw`Do not understand how to morph head style ${a}`}const s=e.ownerDocument;return{target:e,newContent:t,doc:s,config:i,morphStyle:l,ignoreActive:i.ignoreActive,ignoreActiveValue:i.ignoreActiveValue,restoreFocus:i.restoreFocus,idMap:o,persistentIds:r,pantry:d(s),activeElementAndParents:u(e,s),callbacks:i.callbacks,head:i.head}}function c(e){let t=Object.assign({},n);Object.assign(t,e);t.callbacks=Object.assign({},n.callbacks,e.callbacks);t.head=Object.assign({},n.head,e.head);return t}function d(e){const t=e.createElement("div");t.hidden=true;e.documentElement.append(t);return t}function u(e,t){let n=[];let r=t.activeElement;if(r?.tagName!=="BODY"&&e.contains(r)){while(r){n.push(r);if(r===e)break;r=r.parentElement}}return n}function a(e){let t=[];const n=e;for(const o of n.querySelectorAll?.("[id]")??[]){const i=o.getAttribute("id");if(i)t.push({elt:o,id:i})}const r=n.getAttribute?.("id");if(r)t.push({elt:e,id:r});return t}function s(n,e,r,t){for(const{elt:o,id:i}of t){if(e.has(i)){let t=o;while(t){let e=n.get(t);if(e==null){e=new Set;n.set(t,e)}e.add(i);if(t===r)break;t=t.parentElement}}}}function f(e,t){const n=a(e);const r=a(t);const o=h(n,r);let i=new Map;s(i,o,e,n);const l=t.__idiomorphRoot||t;s(i,o,l,r);return{persistentIds:o,idMap:i}}function h(e,t){let n=new Set;let r=new Map;for(const{elt:i,id:l}of e){if(r.has(l)){n.add(l)}else{r.set(l,i.tagName)}}let o=new Set;for(const{elt:i,id:l}of t){if(o.has(l)){n.add(l)}else if(r.get(l)===i.tagName){o.add(l)}}for(const l of n){o.delete(l)}if(n.size){console.warn("[Warning] duplicate ids found during morph, state loss within these elements is possible:",Array.from(n))}return o}return e}();const{normalizeElement:u,normalizeParent:f}=function(){const o=new WeakSet;function e(e){if(g.document(e)){return e.documentElement}else{return e}}function r(e){if(e==null){return document.createElement("div")}else if(typeof e==="string"){return r(l(e))}else if(o.has(e)){return e}else if(g.node(e)){if(e.parentNode){return new i(e)}else{const t=document.createElement("div");t.append(e);return t}}else{const t=document.createElement("div");for(const n of[...e]){t.append(n)}return t}}class i{constructor(e){this.originalNode=e;this.realParentNode=e.parentNode;this.previousSibling=e.previousSibling;this.nextSibling=e.nextSibling}get childNodes(){const e=[];let t=this.previousSibling?this.previousSibling.nextSibling:this.realParentNode.firstChild;while(t&&t!=this.nextSibling){e.push(t);t=t.nextSibling}return e}querySelectorAll(r){return this.childNodes.reduce((t,e)=>{if(g.element(e)){if(e.matches(r))t.push(e);const n=e.querySelectorAll(r);for(let e=0;e<n.length;e++){t.push(n[e])}}return t},[])}insertBefore(e,t){return this.realParentNode.insertBefore(e,t)}moveBefore(e,t){return this.realParentNode.moveBefore(e,t)}get __idiomorphRoot(){return this.originalNode}}function l(n){let r=new DOMParser;let e=n.replace(/<svg(\s[^>]*>|>)([\s\S]*?)<\/svg>/gim,"");if(e.match(/<\/html>/)||e.match(/<\/head>/)||e.match(/<\/body>/)){let t=r.parseFromString(n,"text/html");t.doctype?.remove();if(e.match(/<\/html>/)){o.add(t);return t}else{let e=t.firstChild;if(e){o.add(e)}return e}}else{let e=r.parseFromString("<body><template>"+n+"</template></body>","text/html");let t=e.body.querySelector("template").content;o.add(t);return t}}return{normalizeElement:e,normalizeParent:r}}();const g=function(){const n=e=>e instanceof Element||e?.nodeType===Node.ELEMENT_NODE;const t=(e,t)=>n(e)&&e.localName===t&&e.namespaceURI==="http://www.w3.org/1999/xhtml";return{element:n,node:e=>e instanceof Node||typeof e?.nodeType==="number",document:e=>e instanceof Document||e?.nodeType===Node.DOCUMENT_NODE,templateElement:e=>t(e,"template"),headElement:e=>t(e,"head"),inputElement:e=>t(e,"input"),optionElement:e=>t(e,"option"),textAreaElement:e=>t(e,"textarea")}}();return{morph:t,defaults:n}}();(function(){function o(e){if(e==="morph"||e==="morph:outerHTML"){return{morphStyle:"outerHTML"}}else if(e==="morph:innerHTML"){return{morphStyle:"innerHTML"}}else if(e.startsWith("morph:")){return Function("return ("+e.slice(6)+")")()}}htmx.defineExtension("morph",{isInlineSwap:function(e){let t=o(e);return t?.morphStyle==="outerHTML"||t?.morphStyle==null},handleSwap:function(e,t,n){let r=o(e);if(r){return Idiomorph.morph(t,n.children,r)}}})})();
;
(function () {
  "use strict";

  // ==== htmx_config.js ==========================================================================
  // htmx_config.js: htmx's settings, set before htmx starts (it starts when the page is ready; this
  // bundle runs before that). Here rather than in a <meta> of every page: bytes of each page.
  // Shared state: none. Uses htmx (the bundle's vendored part). Gives nothing.
  Object.assign(htmx.config, {
    // Which answers are swapped in: 204 is "nothing new"; 409 and 422 carry the refusal in the
    // region; any other error replaces the page's main part with the error page's.
    responseHandling: [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "409", swap: true },
      { code: "422", swap: true },
      { code: "[45]..", swap: true, error: true, target: "#main", select: "#main", swapOverride: "outerHTML" }
    ],
    historyCacheSize: 0,
    allowEval: false, // the Content-Security-Policy forbids it too
    includeIndicatorStyles: false, // no inline style (the policy): app.css has them
    attributesToSettle: ["class", "width", "height"],
    timeout: 10000
  });

  // ==== state.js ================================================================================
  // The live table's behaviours that htmx does not cover. Every page also works without this file
  // (forms post, pages reload); with it, a phone stays current without losing what its player
  // touched, tells when it is offline and sends what was tapped meanwhile, and says "your turn".
  //
  // state.js: what the other files share. scripts/bundle_js.py puts every file of static/js/src,
  // this one first, inside one closure (static/js/app.js), so a function one file declares is
  // called by name from another: each file's first lines say which it uses and gives (all use
  // live, byId and visible; several the two constants below). Mutable state two files share lives
  // in Companion, below, and nowhere else: a variable any other file declares is its own.
  // htmx and idiomorph's extension come first in app.js itself (scripts/bundle_js.py: VENDORED).

  var OFFLINE_AFTER = 2; // failed polls in a row before the "no connection" banner
  var RETRIES = [2000, 5000, 15000, 30000, 60000]; // ms before each new try of the stream

  var Companion = {
    // The push stream (push.js opens, reads and drops it): its EventSource; on: it delivers (the
    // page does not poll: polling.js); heard: when its last message came; version and presence:
    // what it said last; tries: failed tries in a row; retryAt: no new try before this (ms; set
    // by polling.js too, when the browser goes on- or offline).
    push: { source: null, on: false, heard: 0, version: 0, presence: "", tries: 0, retryAt: 0, renew: false },
    // Failed polls in a row (connection.js counts them and shows the banner at OFFLINE_AFTER;
    // push.js and queue.js raise it when the stream went quiet or a tap could not be sent).
    failures: 0,
    // A tap kept unsent is being sent again (queue.js): offline.js asks no question meanwhile.
    resending: false
  };

  function live() { return document.getElementById("live"); }
  function byId(id) { return document.getElementById(id); }
  function visible() { return document.visibilityState === "visible"; }
  // An object kept as JSON in sessionStorage under `name` (queue.js: the taps not sent yet;
  // drafts.js: what was typed): {} when there is none, or it cannot be read (private mode).
  function sessionObject(name) {
    try { return JSON.parse(sessionStorage.getItem(name) || "{}"); } catch (err) { return {}; }
  }
  function keepSessionObject(name, value) {
    try { sessionStorage.setItem(name, JSON.stringify(value)); } catch (err) { /* private mode */ }
  }

  // ==== polling.js ==============================================================================
  // polling.js: the live region and the seats list fetched every few seconds while the push stream
  // does not deliver, and what the page does when it is shown again or goes on- or offline.
  // Shared state: reads Companion.push.on, writes Companion.push.retryAt. Uses openStream and
  // closeStream (push.js), setOffline (connection.js), showWaitingPanel (turn.js), keepAwake
  // (keep_awake.js). Gives poll, presence and isPoll to the others.

  var POLL_EVERY = 2000; // ms between polls of the live region while the page is visible
  var PRESENCE_EVERY = 10000; // ms between refreshes of the seats list (who is online)

  // ---- polling ----------------------------------------------------------------------------
  // (A poll still on its way is not doubled: the poller has hx-sync="this:drop".)
  function poll() {
    var region = live();
    var poller = region && region.querySelector(".poller");
    if (!poller || !visible()) return;
    htmx.trigger(poller, "poll");
  }
  function presence() {
    var seats = byId("seats-region");
    if (seats && visible()) htmx.trigger(seats, "presence");
  }
  // While the push stream delivers, it says when to fetch; otherwise the page polls.
  setInterval(function () { if (!Companion.push.on) poll(); }, POLL_EVERY);
  setInterval(function () { if (!Companion.push.on) presence(); }, PRESENCE_EVERY);
  document.addEventListener("visibilitychange", function () {
    if (!visible()) { closeStream(); return; } // hidden: "away", and one connection fewer
    poll(); // back from sleep or another tab: show the table as it is now
    presence();
    openStream();
    keepAwake();
    if (live() && live().dataset.myTurn === "yes") showWaitingPanel();
  });
  window.addEventListener("online", function () { Companion.push.retryAt = 0; poll(); openStream(); });
  window.addEventListener("offline", function () {
    // The polls (which count failures) say when the connection is back, not the stream.
    closeStream();
    Companion.push.retryAt = Date.now() + RETRIES[0];
    setOffline(true);
  });

  function isPoll(detail) {
    // The element that sent the request (in beforeSwap, detail.elt is the swap's target).
    var elt = detail && ((detail.requestConfig && detail.requestConfig.elt) || detail.elt);
    return !!(elt && elt.classList && elt.classList.contains("poller"));
  }

  // ==== push.js =================================================================================
  // push.js: the Server-Sent Events stream that says when to fetch, and when it is given up
  // for polls. Shared state: reads and writes Companion.push (all of it) and Companion.failures.
  // Uses poll, presence and isPoll (polling.js), setOffline (connection.js), sendUnsent
  // (queue.js). Gives openStream, closeStream and dropStream to the others.

  var FIRST_WITHIN = 3000; // ms: the push stream's first message must come within this...
  var SILENT_SLACK = 1500; // ms: ...and each next one within a heartbeat and this, or we poll

  // ---- push: one Server-Sent Events stream per visible page ---------------------------------
  // The stream says "the table is at version N; these seats are online" (at once, on every
  // change, and as a heartbeat). A change's message also carries this page's own live region, as
  // its fetch would bring it (the server renders it for this stream): it is swapped in as a poll's
  // answer is; without it (too large, a redirect due) the page fetches the region itself. If
  // the first message or a heartbeat does not come in time (a proxy that buffers, a connection
  // gone quiet) or the stream fails, the page polls every 2 s and tries the stream again later.
  function pushUrl() { var region = live(); return region && region.dataset.push; }
  function openStream() {
    if (Companion.push.source || !pushUrl() || !window.EventSource || !visible()) return;
    if (Date.now() < Companion.push.retryAt) return;
    var source = new EventSource(pushUrl());
    Companion.push.source = source;
    Companion.push.on = false;
    Companion.push.heard = Date.now();
    source.onmessage = function (e) { if (Companion.push.source === source) heard(e.data); };
    source.onerror = function () { if (Companion.push.source === source) dropStream(false); };
  }
  function closeStream() {
    if (Companion.push.source) Companion.push.source.close();
    Companion.push.source = null;
    Companion.push.on = false;
  }
  function dropStream(silent) {
    closeStream();
    Companion.push.retryAt = Date.now() + RETRIES[Math.min(Companion.push.tries, RETRIES.length - 1)];
    Companion.push.tries += 1;
    // Gone quiet: one failed poll now is enough to say the connection is lost.
    if (silent) Companion.failures = Math.max(Companion.failures, OFFLINE_AFTER - 1);
    poll();
  }
  function heard(data) {
    var text = String(data), cut = text.indexOf("\n");
    var region = cut < 0 ? "" : text.slice(cut + 1);
    var parts = (cut < 0 ? text : text.slice(0, cut)).split(" ");
    var first = !Companion.push.on;
    Companion.push.on = true;
    Companion.push.tries = 0;
    Companion.push.heard = Date.now();
    Companion.push.version = parseInt(parts[0], 10) || 0;
    if (navigator.onLine !== false && (Companion.failures || (byId("conn") && !byId("conn").hidden))) {
      Companion.failures = 0;
      setOffline(false);
    }
    if (behind()) {
      // This page's own tap on its way brings the new region itself (the stream is often
      // faster than the tap's answer): fetching it too would morph the page a second time,
      // under what the player opened meanwhile. Its answer is checked when it comes.
      if (!sending || Date.now() - sendingSince > 5000) {
        // "renew": the region waits for a cookie this page must get first (its fetch brings
        // it); the stream, opened with the old cookies, is opened again once it has.
        if (parts[2] === "renew") Companion.push.renew = true;
        if (!region || !swapRegion(region)) poll();
      }
    } else if (Companion.push.presence && parts[1] !== Companion.push.presence) {
      presence();
    }
    Companion.push.presence = parts[1] || "";
    if (first) sendUnsent();
  }
  // The region the stream brought, swapped in as the poll's answer would be: the same events
  // (htmx:beforeSwap, afterSwap, afterSettle, afterRequest) with the poller as their element, so
  // that what follows a poll (the morph guard, the turn's scroll, the connection's state) follows
  // this too. False when it cannot (no poller, an older region) or a script of the page wants
  // its own fetch (it cancels "companion:streamregion": its poll carries what the page has open,
  // which the stream's region, rendered for the page's address, does not know): the page fetches.
  function swapRegion(html) {
    var region = live(), poller = region && region.querySelector(".poller");
    var got = /data-version="(\d+)"/.exec(html);
    if (!poller || !got || +got[1] <= (+region.dataset.version || 0)) return false;
    if (!region.dispatchEvent(new CustomEvent("companion:streamregion", { bubbles: true, cancelable: true }))) return false;
    var detail = { elt: poller, target: region, requestConfig: { elt: poller }, shouldSwap: true,
                   serverResponse: html, xhr: { status: 200, responseText: html } };
    if (htmx.trigger(region, "htmx:beforeSwap", detail) && detail.shouldSwap) {
      htmx.swap(region, html, { swapStyle: "morph:outerHTML", ignoreTitle: true }, { eventInfo: detail, contextElement: poller });
      htmx.trigger(live() || document.body, "htmx:afterRequest", detail);
    }
    return true;
  }
  function behind() {
    var region = live();
    return !!region && Companion.push.version > (parseInt(region.dataset.version, 10) || 0);
  }
  var sending = 0; // this page's own requests on their way (taps, forms), polls aside
  var sendingSince = 0; // (one that never ended does not stop the fetches for long)
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isPoll(e.detail) || !e.detail.xhr) return;
    sending += 1;
    sendingSince = Date.now();
    // Counted off when its request ends, however it ends. Not by htmx:afterRequest: htmx
    // fires that on the button that was tapped, and when the answer removed that button
    // ("End my turn" is gone once the turn ended) the event never reaches the document, and
    // the page ignored the stream for seconds: a stale phone.
    e.detail.xhr.addEventListener("loadend", function () {
      sending = Math.max(0, sending - 1);
      // After the swap: is the page still behind what the stream said?
      if (Companion.push.on && !sending) setTimeout(function () { if (behind()) poll(); }, 50);
    });
  });
  function pushHeartbeat() {
    var region = live();
    return (parseFloat(region && region.dataset.heartbeat) || 2.5) * 1000;
  }
  setInterval(function () {
    if (!Companion.push.source) { openStream(); return; }
    var within = Companion.push.on ? pushHeartbeat() + SILENT_SLACK : FIRST_WITHIN;
    if (Date.now() - Companion.push.heard > within) dropStream(true);
  }, 500);
  document.addEventListener("DOMContentLoaded", openStream);
  // A fetch the stream asked for came back older than the newest version heard (another
  // change came while it was on its way, and that trigger was dropped): fetch once more.
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!Companion.push.on || !isPoll(e.detail) || !e.detail.xhr || e.detail.xhr.status !== 200) return;
    if (Companion.push.renew) {
      Companion.push.renew = false;
      closeStream();
      openStream();
    }
    var got = /data-version="(\d+)"/.exec(e.detail.xhr.responseText || "");
    if (got && parseInt(got[1], 10) < Companion.push.version) setTimeout(poll, 0);
  });

  // ==== connection.js ===========================================================================
  // connection.js: the "no connection" banner, shown after OFFLINE_AFTER failed polls in a row and
  // turned into "back" once a request is answered; each answer also settles its tap in the unsent
  // queue. Shared state: reads and writes Companion.failures. Uses isPoll (polling.js), keyOf,
  // forget and sendUnsent (queue.js), tellSent (offline.js). Gives setOffline to the others.

  // ---- connection --------------------------------------------------------------------------
  function setOffline(offline) {
    var banner = byId("conn");
    if (!banner) return;
    if (offline) {
      banner.textContent = banner.dataset.offline;
      banner.classList.remove("back");
      banner.hidden = false;
    } else if (!banner.hidden) {
      banner.textContent = banner.dataset.back;
      banner.classList.add("back");
      setTimeout(function () { if (Companion.failures === 0) banner.hidden = true; }, 2500);
    }
  }
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    var answered = xhr && xhr.status > 0;
    if (answered) {
      if (Companion.failures >= OFFLINE_AFTER || (byId("conn") && !byId("conn").hidden)) setOffline(false);
      Companion.failures = 0;
      tellSent(keyOf(e.detail), xhr);
      forget(keyOf(e.detail));
      if (isPoll(e.detail)) sendUnsent();
    } else if (isPoll(e.detail)) {
      Companion.failures += 1;
      if (Companion.failures >= OFFLINE_AFTER) setOffline(true);
    }
  });

  // ==== banners.js ==============================================================================
  // banners.js: the banners at the bottom of the screen (no connection, a tap not sent yet, the
  // table changed) never cover a control: the page gets room for them below its last line, and a
  // control that sat where a banner appears is scrolled above it. Shared state: none. Gives
  // nothing.
  (function () {
    var banners = document.querySelector(".banners");
    if (!banners || !("ResizeObserver" in window)) return;
    var room = 0;
    new ResizeObserver(function () {
      var height = Math.ceil(banners.getBoundingClientRect().height);
      if (height === room) return;
      var grew = height > room;
      room = height;
      document.body.style.paddingBottom = height ? height + "px" : "";
      if (!grew || !height) return;
      // The control in use (or the turn's button) must stay above the banners.
      var active = document.activeElement;
      var control = active && active !== document.body ? active : document.querySelector("#live [data-turn-panel] button");
      if (!control) return;
      var box = control.getBoundingClientRect();
      var top = window.innerHeight - height;
      if (box.bottom > top && box.top < window.innerHeight) {
        window.scrollBy({ top: box.bottom - top + 8, behavior: "instant" });
      }
    }).observe(banners);
  })();

  // ==== queue.js ================================================================================
  // queue.js: every submission (a POST) carries a key; what got no answer is kept in
  // sessionStorage, offered again after a reload, and sent again once the connection is back.
  // Shared state: reads and writes Companion.resending, raises Companion.failures, reads
  // Companion.push.source. Uses dropStream (push.js), setOffline (connection.js), twinKey, whatOf
  // and sentWords (offline.js). Gives keyOf, loadUnsent, forget, labelOf and sendUnsent to the
  // others.

  var STORE = "companion.unsent"; // sessionStorage: submissions that got no answer yet

  // ---- every submission carries a key; what got no answer is kept and sent again ----------
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function keyOf(detail) {
    var params = detail && detail.requestConfig && detail.requestConfig.parameters;
    return params && params.get ? params.get("key") : null;
  }
  function loadUnsent() { return sessionObject(STORE); }
  function saveUnsent(all) { keepSessionObject(STORE, all); }
  function forget(key) {
    if (!key) return;
    var all = loadUnsent();
    if (all[key]) { delete all[key]; saveUnsent(all); }
    showUnsent();
  }
  function labelOf(detail) {
    // What the player will recognise: the button tapped, and what was typed with it.
    var event = detail.triggeringEvent;
    var button = event && event.submitter;
    var text = (button && button.textContent) || (detail.elt && detail.elt.getAttribute("aria-label")) || "";
    var form = detail.elt && (detail.elt.form || (detail.elt.tagName === "FORM" ? detail.elt : null));
    var typed = form && form.querySelector("input[type=text], input:not([type]), input[type=number], textarea");
    if (typed && typed.value) text += " (" + typed.value + ")";
    return text.replace(/\s+/g, " ").trim().slice(0, 80);
  }
  document.addEventListener("htmx:configRequest", function (e) {
    if (e.detail.verb !== "post") return;
    var params = e.detail.parameters;
    var all = loadUnsent();
    // The same tap again while the first is unanswered: the first one's key (see twinKey).
    if (!params.get("key")) params.set("key", twinKey(all, e.detail.path, params) || newKey());
    var key = params.get("key");
    var entries = [];
    params.forEach(function (value, name) { if (typeof value === "string") entries.push([name, value]); });
    var before = all[key] || {}; // a resend (htmx.ajax from the region) keeps the tap's words
    all[key] = { path: e.detail.path, params: entries, label: before.label || whatOf(e.detail),
                 sent: before.sent || sentWords(e.detail), queued: !!before.queued,
                 state: "sending", page: location.pathname };
    saveUnsent(all);
  });
  document.addEventListener("htmx:sendError", function (e) {
    var key = keyOf(e.detail);
    var all = loadUnsent();
    if (key && all[key]) { all[key].state = "waiting"; all[key].queued = true; saveUnsent(all); }
    Companion.failures = Math.max(Companion.failures, OFFLINE_AFTER);
    setOffline(true);
    showUnsent();
    // A tap that could not be sent: polls, not a stream that may still be open, say when the
    // connection is back (and send it then).
    if (Companion.push.source) dropStream(false);
  });
  function sendUnsent() {
    var all = loadUnsent();
    var keys = Object.keys(all).filter(function (k) {
      return all[k].state === "waiting" && all[k].page === location.pathname;
    });
    if (Companion.resending || !keys.length) return;
    Companion.resending = true;
    var item = all[keys[0]];
    var values = {};
    item.params.forEach(function (pair) { values[pair[0]] = pair[1]; });
    htmx.ajax("POST", item.path, { source: live() || document.body, target: "#live", swap: "outerHTML", values: values })
      .finally(function () { Companion.resending = false; showUnsent(); });
  }
  function showUnsent() {
    var banner = byId("unsent");
    if (!banner) return;
    var all = loadUnsent();
    var keys = Object.keys(all).filter(function (k) {
      return all[k].state !== "sending" && all[k].page === location.pathname;
    });
    banner.replaceChildren();
    keys.forEach(function (key) {
      var item = all[key];
      var p = document.createElement("p");
      var template = item.state === "waiting" ? banner.dataset.waiting : banner.dataset.failed;
      p.textContent = template.replace("%(what)s", item.label || "…");
      var row = document.createElement("div");
      row.className = "row";
      var again = document.createElement("button");
      again.type = "button";
      again.textContent = banner.dataset.send;
      again.addEventListener("click", function () {
        var fresh = loadUnsent();
        if (fresh[key]) { fresh[key].state = "waiting"; saveUnsent(fresh); }
        sendUnsent();
      });
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "secondary";
      drop.textContent = banner.dataset.discard;
      drop.addEventListener("click", function () { forget(key); });
      row.append(again, drop);
      banner.append(p, row);
    });
    banner.hidden = keys.length === 0;
  }
  // After a reload, what was not sent before is offered again (not sent by itself).
  document.addEventListener("DOMContentLoaded", function () {
    var all = loadUnsent();
    Object.keys(all).forEach(function (k) { all[k].state = "failed"; all[k].queued = true; });
    saveUnsent(all);
    showUnsent();
  });

  // ==== offline.js ==============================================================================
  // offline.js: taps made while offline. The same tap again is the first one (its key); another
  // value on the same form replaces the queued one only after the player says yes (the in-page
  // question, also used when a value costs something sent again), as does any other entry of the
  // game; "sent" once it got through, or "not applied" with the table's reason.
  // Shared state: reads Companion.resending. Uses loadUnsent, forget and labelOf (queue.js).
  // Gives twinKey, whatOf, sentWords and tellSent to the others.

  // ---- taps made while offline: one entry per form, an ask before another value, then "sent" ---
  // The same form tapped again with the same values while the first tap is unanswered is that
  // first tap: it is sent with the first one's key, so the server applies it once (also when
  // the first did reach it and only its answer was lost). Another value on the same form
  // replaces the queued one only after the player says so. Once a queued tap is answered, the
  // page says what was applied, in the game's words for that form (its data-sent) or in
  // general words with the button's label.
  function paramPairs(params) {
    // The values a tap sends, key aside, in one comparable string: from the [name, value]
    // pairs kept in sessionStorage, or from a request's (or a form's) FormData.
    var pairs = [];
    if (Array.isArray(params)) {
      params.forEach(function (pair) { if (pair[0] !== "key") pairs.push(pair[0] + "=" + pair[1]); });
    } else if (params && params.forEach) {
      params.forEach(function (value, name) {
        if (typeof value === "string" && name !== "key") pairs.push(name + "=" + value);
      });
    }
    return pairs.sort().join("&");
  }
  function queuedOn(all, path) {
    // This page's taps on that form that got no answer yet, oldest first.
    return Object.keys(all).filter(function (k) {
      return all[k].page === location.pathname && all[k].path === path;
    });
  }
  function twinKey(all, path, params) {
    var mine = paramPairs(params);
    var same = queuedOn(all, path).filter(function (k) { return paramPairs(all[k].params) === mine; });
    return same.length ? same[0] : null;
  }
  function formOf(elt) {
    if (!elt) return null;
    return elt.tagName === "FORM" ? elt : elt.form || (elt.closest && elt.closest("form"));
  }
  function fillIn(template, form, params) {
    // "{amount}" -> the value sent; a radio or a list shows the words next to it, not its value.
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      var value = params && params.get ? params.get(name) : null;
      var field = value == null && form ? form.elements[name] : null; // asked before it is sent
      if (field && field.value != null) value = field.value;
      var choice = form && Array.prototype.find.call(form.elements, function (el) {
        return el.name === name && ((el.type === "radio" && el.checked) || el.tagName === "SELECT");
      });
      if (choice && choice.type === "radio") {
        var label = choice.closest("label");
        if (label && label.textContent.trim()) return label.textContent.replace(/\s+/g, " ").trim();
      } else if (choice && choice.selectedOptions && choice.selectedOptions[0]) {
        return choice.selectedOptions[0].textContent.trim();
      }
      return value == null ? "" : String(value);
    });
  }
  function whatOf(detail) {
    // The short name of a tap ("bid 2"), where the game gives one; else the button's label.
    var form = formOf(detail.elt);
    if (form && form.dataset.what) return fillIn(form.dataset.what, form, detail.parameters);
    return labelOf(detail);
  }
  function sentWords(detail) {
    var form = formOf(detail.elt);
    if (form && form.dataset.sent) return fillIn(form.dataset.sent, form, detail.parameters);
    var banner = byId("sent");
    var what = whatOf(detail);
    return banner && what ? banner.dataset.generic.replace("%(what)s", what) : "";
  }
  function reasonOf(xhr) {
    // Why a queued tap was not applied, from the answer's region: what the table did meanwhile
    // (a 409: the newest line of its history) or the rules' refusal (the region's alert).
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var banner = byId("sent");
      var newest = xhr.status === 409 && doc.querySelector("#live ol.log li:not(.undone)");
      if (newest && banner.dataset.meanwhile) {
        return banner.dataset.meanwhile.replace("%(what)s", newest.textContent.replace(/\s+/g, " ").trim());
      }
      var alert = doc.querySelector("#live .alert p");
      return alert ? alert.textContent.replace(/\s+/g, " ").trim() : "";
    } catch (err) { return ""; }
  }
  function tellSent(key, xhr) {
    // A queued tap, once answered, is said to be applied or not (with the table's reason): it
    // never just disappears from the "not sent yet" banner.
    var item = key && loadUnsent()[key];
    var banner = byId("sent");
    if (!item || !item.queued || !banner) return;
    var line = document.createElement("p");
    if (xhr.status === 200) {
      if (!item.sent) return;
      line.textContent = item.sent;
    } else if (xhr.status === 409 || xhr.status === 422) {
      line.className = "refused";
      line.textContent = banner.dataset.refused.replace("%(what)s", item.label || "…")
        .replace("%(why)s", reasonOf(xhr)).trim();
    } else {
      return;
    }
    banner.append(line);
    banner.hidden = false;
    clearTimeout(tellSent.timer);
    tellSent.timer = setTimeout(function () { banner.hidden = true; banner.replaceChildren(); }, 12000);
  }
  function ask(q, onYes, about) {
    // A question in the page, where thumbs are (the browser's own dialog would speak the
    // browser's language): one button goes on, the other leaves everything as it was. Where a
    // yes costs something (q.careful), "no" is the button that stands out and has the focus.
    var box = byId("ask");
    if (!box) { onYes(); return; }
    box.replaceChildren();
    var p = document.createElement("p");
    p.id = "ask-text";
    p.textContent = q.text;
    var row = document.createElement("div");
    row.className = "row";
    var go = document.createElement("button");
    go.type = "button";
    go.id = "ask-yes";
    go.textContent = q.yes;
    var stay = document.createElement("button");
    stay.type = "button";
    stay.id = "ask-no";
    stay.textContent = q.no;
    (q.careful ? go : stay).className = "secondary";
    go.addEventListener("click", function () { box.hidden = true; onYes(); });
    stay.addEventListener("click", function () { box.hidden = true; if (q.otherwise) q.otherwise(); });
    row.append(go, stay);
    box.append(p, row);
    box.about = about; // the form asked about (the question goes when the form does)
    box.hidden = false;
    (q.careful ? stay : go).focus();
  }
  document.addEventListener("htmx:afterSettle", function () {
    // The table moved on and took the form away: a yes would send nothing, so no question.
    var box = byId("ask");
    if (box && !box.hidden && box.about && !document.body.contains(box.about)) box.hidden = true;
  });
  function formValues(form, submitter) {
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (err) { data = new FormData(form); }
    return data;
  }
  // Before a tap leaves: the questions that may hold it back. Each check gives a question (its
  // words, its two buttons, what a yes does) or nothing; the tap goes out once each is answered
  // yes, and not at all on a no.
  function costlyRepeat(detail) {
    // A form may name a value that costs something when sent again (a bid just refused and
    // fined): sending exactly that asks first, and a yes adds the form's confirmation field.
    var form = formOf(detail.elt);
    var field = form && form.dataset.askField && form.elements[form.dataset.askField];
    if (!field || field.value.trim() !== form.dataset.askValue) return null;
    return {
      text: form.dataset.ask, yes: form.dataset.askYes, no: form.dataset.askNo, careful: true,
      otherwise: function () { field.value = ""; field.focus(); }, // "bid something else"
      then: function () {
        var yes = document.createElement("input");
        yes.type = "hidden";
        yes.name = form.dataset.askAdd;
        yes.value = "1";
        form.append(yes);
        return function () { yes.remove(); }; // once the request has read the form
      }
    };
  }
  var MOVES = /\/(act\/|undo(\?|$))/; // a game's entries and the undo (not notes)
  function replaceQueued(detail) {
    // A game's entries (and the undo) replace one another, whatever their kind: a bid waiting to
    // be sent and then a pass would both reach the table, the second against a table the first
    // changed. Two notes written offline are two notes.
    var form = formOf(detail.elt);
    var box = byId("ask");
    if (!form || !box || Companion.resending || !MOVES.test(detail.path || "")) return null;
    var all = loadUnsent();
    var submitter = detail.triggeringEvent && detail.triggeringEvent.submitter;
    var mine = paramPairs(formValues(form, submitter));
    var others = Object.keys(all).filter(function (k) {
      var item = all[k];
      return item.page === location.pathname && MOVES.test(item.path || "") && item.state !== "sending" &&
        !(item.path === detail.path && paramPairs(item.params) === mine);
    });
    if (!others.length) return null;
    return {
      text: box.dataset.replace.replace("%(old)s", all[others[0]].label || "…")
        .replace("%(new)s", whatOf(detail) || "…"),
      yes: box.dataset.replaceYes, no: box.dataset.replaceNo,
      then: function () { others.forEach(forget); }
    };
  }
  document.addEventListener("htmx:confirm", function (e) {
    var detail = e.detail;
    if (detail.verb !== "post" || detail.question || !formOf(detail.elt)) return;
    var questions = [costlyRepeat(detail), replaceQueued(detail)].filter(Boolean);
    if (!questions.length) return;
    e.preventDefault();
    var cleanUps = [];
    (function next(i) {
      if (i === questions.length) {
        detail.issueRequest(true);
        cleanUps.forEach(function (f) { f(); });
        return;
      }
      var q = questions[i];
      ask(q, function () {
        var cleanUp = q.then();
        if (cleanUp) cleanUps.push(cleanUp);
        next(i + 1);
      }, formOf(detail.elt));
    })(0);
  });

  // ==== drafts.js ===============================================================================
  // drafts.js: what a player typed and has not sent yet (an amount, a number, a name) survives a
  // reload of the page, as long as the table has not moved on since (the live region's version):
  // kept in sessionStorage per page, put back into the same empty box of the same form, dropped
  // once the form was sent. Shared state: none. Uses live, byId, sessionObject and
  // keepSessionObject (state.js). Gives nothing.
  var DRAFTS = "companion.drafts";
  var TYPED = 'input[type=number], input[type=text], input:not([type]), textarea';

  function readDrafts() { return sessionObject(DRAFTS); }
  function writeDrafts(all) { keepSessionObject(DRAFTS, all); }
  function draftField(el) {
    var form = el.form;
    return form && form.id && el.name && el.closest("#live") && el.matches(TYPED) ? form.id + " " + el.name : null;
  }
  document.addEventListener("input", function (e) {
    var field = draftField(e.target);
    var region = live();
    if (!field || !region) return;
    var all = readDrafts();
    var page = all[location.pathname] || {};
    if (page.version !== region.dataset.version) page = { version: region.dataset.version, fields: {} };
    if (e.target.value) page.fields[field] = e.target.value;
    else delete page.fields[field];
    all[location.pathname] = page;
    writeDrafts(all);
  });
  // Sent: what it held is no draft any more.
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
    if (!form || !form.id || !e.detail.successful) return;
    var all = readDrafts();
    var page = all[location.pathname];
    if (!page) return;
    Object.keys(page.fields).forEach(function (field) {
      if (field.indexOf(form.id + " ") === 0) delete page.fields[field];
    });
    writeDrafts(all);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var region = live();
    var page = readDrafts()[location.pathname];
    if (!region || !page || page.version !== region.dataset.version) return;
    Object.keys(page.fields).forEach(function (field) {
      var parts = field.split(" ");
      var form = byId(parts[0]);
      var box = form && form.elements.namedItem(parts[1]);
      if (box && box.matches && box.matches(TYPED) && !box.value) box.value = page.fields[field];
    });
  });

  // ==== morph_guard.js ==========================================================================
  // morph_guard.js: live updates keep what the player touched (the controls changed since their
  // form was rendered are not morphed; a bar offers the new state when their form is gone), and
  // a choice in the table menu closes the menu. Shared state: none (touched, pending and kept are
  // this file's). Uses isPoll (polling.js). htmx.onLoad: Idiomorph's settings, once.

  // ---- live updates keep what the player touched --------------------------------------------
  // The poll morphs the live region (idiomorph): unchanged parts stay, changed parts change.
  // Idiomorph would copy the server's value/checked into every control but the focused one, so
  // each control the player changed since its form was rendered is skipped. If the new state no
  // longer has such a control (the form is gone), the page is not changed under the player:
  // a bar says that the table changed, and one tap shows it.
  var touched = new WeakSet();
  function markTouched(e) {
    var t = e.target;
    var region = live();
    if (!t || !t.form || !region || !region.contains(t)) return;
    if (t.type === "radio" && t.name) {
      t.form.querySelectorAll('input[type="radio"]').forEach(function (r) { if (r.name === t.name) touched.add(r); });
    } else {
      touched.add(t);
    }
  }
  document.addEventListener("input", markTouched, true);
  document.addEventListener("change", markTouched, true);
  function touchedControls() {
    var region = live();
    if (!region) return [];
    return Array.prototype.filter.call(region.querySelectorAll("input, select, textarea"), function (el) {
      return touched.has(el) && el.type !== "hidden";
    });
  }
  function findIn(doc, el) {
    if (el.id) return doc.getElementById(el.id);
    var form = el.form && el.form.getAttribute("action");
    var candidates = doc.querySelectorAll("input, select, textarea");
    for (var i = 0; i < candidates.length; i += 1) {
      var c = candidates[i];
      if (c.name === el.name && (!form || (c.form && c.form.getAttribute("action") === form)) &&
          (el.type !== "radio" && el.type !== "checkbox" || c.value === el.value)) return c;
    }
    return null;
  }
  var pending = null;
  var kept = [];
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!isPoll(e.detail) || !e.detail.shouldSwap) return;
    var html = e.detail.serverResponse;
    if (!html) return;
    var controls = touchedControls();
    if (!controls.length) return;
    var doc = new DOMParser().parseFromString(html, "text/html");
    var lost = controls.some(function (el) { return !findIn(doc, el); });
    if (lost) {
      e.detail.shouldSwap = false;
      pending = html;
      var bar = byId("changed");
      if (bar) bar.hidden = false;
      return;
    }
    // Whatever the morph keeps or rebuilds, the player's values are put back afterwards.
    kept = controls.map(function (el) {
      return { el: el, value: el.value, checked: el.checked };
    });
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (!isPoll(e.detail) || !kept.length) return;
    kept.forEach(function (saved) {
      var now = findIn(document, saved.el);
      if (!now) return;
      if (now.type === "radio" || now.type === "checkbox") now.checked = saved.checked;
      else now.value = saved.value;
      touched.add(now);
    });
    kept = [];
  });
  // A choice in the table menu closes the menu.
  document.addEventListener("click", function (e) {
    var item = e.target && e.target.closest && e.target.closest(".menu-item");
    var menu = item && item.closest("details");
    if (menu) menu.open = false;
  });
  document.addEventListener("click", function (e) {
    if (!e.target || e.target.id !== "changed-show" || !pending) return;
    var html = pending;
    pending = null;
    byId("changed").hidden = true;
    htmx.swap(live(), html, { swapStyle: "outerHTML" });
  });
  htmx.onLoad(function () {
    if (window.Idiomorph && !window.Idiomorph.companionGuard) {
      window.Idiomorph.companionGuard = true;
      window.Idiomorph.defaults.ignoreActiveValue = true;
      window.Idiomorph.defaults.callbacks.beforeNodeMorphed = function (oldNode) {
        if (oldNode.nodeType === 1 && touched.has(oldNode)) return false;
      };
    }
  });

  // ==== refusals.js =============================================================================
  // refusals.js: every refusal is the app's own message (the browser's validation bubbles are
  // off, on every form the page loads or a swap brings: htmx.onLoad), and after one's own entry
  // or an undo the answer is in view. Shared state: none. Uses isPoll (polling.js),
  // showWaitingPanel (turn.js).

  // ---- every refusal is the app's own message ---------------------------------------------
  // The browser's validation bubbles (in the browser's language, with no rule link) would stop
  // a form before the app could say which rule and what is allowed: forms are sent as typed.
  function noBubbles(root) {
    (root || document).querySelectorAll("form").forEach(function (form) { form.noValidate = true; });
  }
  // On the page as loaded and in whatever a swap brings (htmx.onLoad: both).
  htmx.onLoad(function (elt) { noBubbles(elt.parentNode || document); });
  // After an undo the view goes back to the panel that is waiting.
  document.addEventListener("htmx:afterSettle", function (e) {
    var path = e.detail.requestConfig && e.detail.requestConfig.path;
    if (path && /\/undo(\?|$)/.test(path)) showWaitingPanel(true);
  });
  // After one's own entry the answer is in view: its undo line once it was applied (the page
  // had scrolled the turn's panel to the top, and the new region puts the undo line above the
  // panel, off the screen), the refusal once it was refused (the one shown: a game may show it
  // next to its form instead of at the top).
  function inView(el) {
    var box = el.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  }
  document.addEventListener("htmx:afterSettle", function (e) {
    var path = e.detail.requestConfig && e.detail.requestConfig.path;
    var xhr = e.detail.xhr;
    if (isPoll(e.detail) || !path || !/\/act\//.test(path) || !xhr) return;
    if (xhr.status === 200) {
      var undo = byId("undo-here");
      if (undo && !inView(undo)) undo.scrollIntoView({ block: "start" });
    } else {
      var alerts = Array.prototype.slice.call(document.querySelectorAll("#live .alert"))
        .filter(function (el) { return el.offsetParent !== null; }); // the one shown
      if (alerts.length && !alerts.some(inView)) alerts[0].scrollIntoView({ block: "start" });
    }
  });

  // ==== turn.js =================================================================================
  // turn.js: your turn (the title, a vibration, a sound, the panel in view), and a seated phone
  // following its person to a rematch, the next step brought into view. Shared state: none
  // (wasMyTurn and lastStep are this file's). Uses isPoll (polling.js), inView (refusals.js).
  // Gives showWaitingPanel and beep to the others. Like invite.js and wide_tables.js, it runs on
  // DOMContentLoaded and on htmx:afterSettle, not htmx.onLoad: htmx:load comes before every
  // afterSettle handler, and this panel's scroll must come after refusals.js's (the undo line).

  // ---- your turn: the title, a vibration, a sound, the panel in view -----------------------
  var wasMyTurn = null;
  function showWaitingPanel(always) {
    var target = document.querySelector("#live [data-turn-panel]") || byId("your-turn") || byId("game-panel");
    if (always && !document.querySelector("#live [data-turn-panel]")) target = byId("game-panel") || target;
    if (target) target.scrollIntoView({ block: "start", behavior: "smooth" });
  }
  function beep() {
    if (localStorage.getItem("companion.sound") !== "on") return;
    try {
      var ctx = beep.ctx || (beep.ctx = new (window.AudioContext || window.webkitAudioContext)());
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.15;
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.18);
    } catch (err) { /* no audio here */ }
  }
  function updateTurn() {
    var region = live();
    if (!region || !region.dataset.title) return;
    var mine = region.dataset.myTurn === "yes";
    document.title = mine ? region.dataset.titleTurn : region.dataset.title;
    if (mine && wasMyTurn === false) {
      if (navigator.vibrate) navigator.vibrate(200);
      beep();
    }
    if (mine && wasMyTurn !== true) showWaitingPanel();
    wasMyTurn = mine;
  }
  document.addEventListener("htmx:afterSettle", updateTurn);
  // The table moved on by itself (a poll or the stream, not this phone's own entry, whose answer
  // refusals.js puts in view): when what this phone may enter changed (its turn, its prompt) and
  // the next step is out of view, it is brought into view, unless the player is typing. A phone
  // left scrolled down at the auction's keypad thus shows what comes after it.
  var lastStep = null;
  function stepOf(region) {
    var prompt = byId("prompt");
    return region.dataset.myTurn + "|" + (prompt ? prompt.textContent : "");
  }
  function followStep(e) {
    var region = live();
    if (!region || !region.dataset.title) return;
    var step = stepOf(region);
    var typing = document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (lastStep !== null && step !== lastStep && isPoll(e.detail) && !typing) {
      var target = document.querySelector("#live [data-turn-panel]") || byId("prompt") || region;
      if (!inView(target)) target.scrollIntoView({ block: "start", behavior: "smooth" });
    }
    lastStep = step;
  }
  document.addEventListener("htmx:afterSettle", followStep);
  document.addEventListener("DOMContentLoaded", function () { var r = live(); if (r) lastStep = stepOf(r); });
  // A rematch started: a seated phone follows its person to the new table by itself.
  function followRematch() {
    var region = live();
    if (region && region.dataset.rematch && !followRematch.going) {
      followRematch.going = true;
      setTimeout(function () { location.assign(region.dataset.rematch); }, 1200);
    }
  }
  document.addEventListener("htmx:afterSettle", followRematch);
  document.addEventListener("DOMContentLoaded", followRematch);
  document.addEventListener("DOMContentLoaded", updateTurn);

  // ==== clock.js ================================================================================
  // clock.js: the table clock counts on in the page. Each [data-clock] holds a seat's time on
  // turn as the server worked it out when it made the region (data-seconds), and runs on while
  // data-running says the seat is on the clock; each [data-bank] counts a time bank down the
  // same way. Only the time elapsed on this phone since that figure arrived is added, so a phone
  // whose own clock is wrong still counts right. With a bank, the phone whose turn it is warns
  // at 30 s and 10 s left (a banner and, where allowed, the turn sound). Shared state: none.
  // Uses live, byId and beep (turn.js).

  var clockShown = { warned: {} };
  function clockText(seconds) {
    var negative = seconds < 0;
    var whole = Math.round(Math.abs(seconds));
    var h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
    var text = (h ? h + ":" + (m < 10 ? "0" : "") + m : m) + ":" + (s < 10 ? "0" : "") + s;
    return (negative && whole ? "\u2212" : "") + text;
  }
  // The time elapsed since this element got its figure from the server: a swap of another part
  // of the page (the players list every few seconds) leaves the figure, and its moment, as they
  // were; a new figure (a morph changes the attribute in place) starts the count again.
  function sinceFigure(el) {
    if (el.clockFigure !== el.dataset.seconds || el.clockRuns !== el.dataset.running) {
      el.clockFigure = el.dataset.seconds;
      el.clockRuns = el.dataset.running;
      el.clockAt = performance.now();
    }
    return el.dataset.running ? (performance.now() - el.clockAt) / 1000 : 0;
  }
  function tickClocks() {
    var region = live();
    if (!region) return;
    region.querySelectorAll("[data-clock]").forEach(function (el) {
      el.textContent = clockText((parseFloat(el.dataset.seconds) || 0) + sinceFigure(el));
    });
    region.querySelectorAll("[data-bank]").forEach(function (el) {
      var left = (parseFloat(el.dataset.seconds) || 0) - sinceFigure(el);
      el.textContent = clockText(left);
      var box = el.parentNode;
      if (box) box.classList.toggle("low", left < 30);
      if (box) box.classList.toggle("over", left < 0);
      if (el.dataset.running && region.dataset.myTurn === "yes") warnBank(left);
    });
  }
  function warnBank(left) {
    var banner = byId("bank-warning");
    [30, 10].forEach(function (mark) {
      if (left <= mark && left > mark - 5 && !clockShown.warned[mark]) {
        clockShown.warned[mark] = true;
        beep();
        if (banner) {
          banner.textContent = banner.dataset["left" + mark] || "";
          banner.hidden = false;
        }
      }
    });
    if (banner && left < 0) {
      banner.textContent = banner.dataset.over || "";
      banner.hidden = false;
    }
  }
  function startClocks() {
    var region = live();
    if (region && region.dataset.myTurn !== "yes") clockShown.warned = {};
    tickClocks();
    if (!startClocks.timer) startClocks.timer = setInterval(tickClocks, 1000);
  }
  document.addEventListener("DOMContentLoaded", startClocks);
  document.addEventListener("htmx:afterSettle", startClocks);

  // ==== invite.js ===============================================================================
  // invite.js: the invitation, closed once every seat is taken and gone once the game is over.
  // Shared state: none (freeBefore is this file's).

  // ---- the invitation: closed once every seat is taken, gone once the game is over ---------
  // (It sits outside the live region: the region's data says how many seats are free.)
  var freeBefore = null;
  function syncInvite() {
    var region = live();
    var invite = byId("invite");
    if (!region || !invite || !region.dataset.seatsFree) return;
    var free = parseInt(region.dataset.seatsFree, 10);
    if (free === 0 && freeBefore > 0) invite.open = false;
    freeBefore = free;
    if (region.dataset.over === "yes") {
      invite.hidden = true;
      var item = byId("menu-invite");
      if (item) item.hidden = true;
    }
  }
  document.addEventListener("htmx:afterSettle", syncInvite);
  document.addEventListener("DOMContentLoaded", syncInvite);

  // ==== wide_tables.js ==========================================================================
  // wide_tables.js: a table wider than its frame scrolls inside it, with a line that says so.
  // Shared state: none.

  // ---- a table wider than its frame scrolls inside it, and says so ---------------------------
  // (Its first column stays put: app.css, .score-wrap.scrolls.) Checked again whenever the page
  // changes, a fold opens or the screen turns: a morph drops the line this adds.
  function markWideTables() {
    var words = document.body && document.body.dataset.scrollHint;
    document.querySelectorAll(".score-wrap").forEach(function (wrap) {
      wrap.classList.remove("scrolls"); // measured as laid out without it (no flip-flop)
      var wide = wrap.clientWidth > 0 && wrap.scrollWidth > wrap.clientWidth + 1;
      var line = wrap.previousElementSibling;
      var said = !!line && line.classList.contains("scroll-hint");
      wrap.classList.toggle("scrolls", wide);
      if (wide && !said && words) {
        line = document.createElement("p");
        line.className = "scroll-hint";
        line.textContent = words;
        wrap.before(line);
      } else if (!wide && said) {
        line.remove();
      }
    });
  }
  document.addEventListener("DOMContentLoaded", markWideTables);
  document.addEventListener("htmx:afterSettle", markWideTables);
  document.addEventListener("toggle", markWideTables, true); // a <details> opened or closed
  window.addEventListener("resize", markWideTables);

  // ==== keep_awake.js ===========================================================================
  // keep_awake.js: the screen kept on while the table is open (a wake lock, or a muted video on
  // a plain http address), and the page's two switches: keep awake and sound. Shared state: none
  // (lock is this file's). Uses beep (turn.js). Gives keepAwake to the others.

  // ---- keep the screen on while the table is open -------------------------------------------
  var lock = null;
  function awakeWanted() { return localStorage.getItem("companion.awake") !== "off"; }
  function keepAwake() {
    if (!live() || !awakeWanted() || !visible()) return;
    if ("wakeLock" in navigator && window.isSecureContext) {
      if (!lock) navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        l.addEventListener("release", function () { lock = null; });
      }).catch(function () { /* refused: nothing to do */ });
    } else {
      // Not a secure context (a plain http address on the table's Wi-Fi): a silent, muted video
      // playing keeps the screen awake on phones. It may only start on a tap: before the first
      // one it is not even fetched (a phone's first load stays small).
      var video = byId("keep-awake");
      var tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (video && video.paused && tapped) video.play().catch(function () { /* waits for a tap */ });
    }
  }
  function stopAwake() {
    if (lock) { lock.release(); lock = null; }
    var video = byId("keep-awake");
    if (video) video.pause();
  }
  document.addEventListener("pointerdown", keepAwake, { passive: true });
  document.addEventListener("DOMContentLoaded", keepAwake);

  function setupToggle(id, storageKey, defaultOn, onChange) {
    var button = byId(id);
    if (!button) return;
    function render() {
      var on = (localStorage.getItem(storageKey) || (defaultOn ? "on" : "off")) === "on";
      button.textContent = on ? button.dataset.on : button.dataset.off;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      return on;
    }
    button.hidden = false;
    render();
    button.addEventListener("click", function () {
      var on = !render();
      localStorage.setItem(storageKey, on ? "on" : "off");
      render();
      onChange(on);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    setupToggle("wake-toggle", "companion.awake", true, function (on) { if (on) keepAwake(); else stopAwake(); });
    setupToggle("sound-toggle", "companion.sound", false, function (on) { if (on) beep(); });
  });
})();
