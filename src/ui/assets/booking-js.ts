/**
 * The guest pages' optional script (everything works without it): it keeps a form from being
 * sent twice by a double click, counts down the held time, and moves focus to a form's problems.
 */
export const BOOKING_JS = `(function(){
"use strict";
document.addEventListener("submit",function(e){
var f=e.target;if(!(f instanceof HTMLFormElement))return;
if(f.dataset.sent==="1"){e.preventDefault();return;}
f.dataset.sent="1";setTimeout(function(){f.dataset.sent="";},8000);
});
var alertBox=document.querySelector(".notice[role=alert]");
if(alertBox){var first=alertBox.querySelector("a")||alertBox;if(!first.hasAttribute("href"))first.setAttribute("tabindex","-1");first.focus();}
var held=document.querySelector("[data-held-until]");
if(held){var until=Date.parse(held.getAttribute("data-held-until")||"");
if(!isNaN(until)){var base=held.textContent;var out=document.createElement("span");out.setAttribute("aria-hidden","true");held.appendChild(out);
var tick=function(){var s=Math.max(0,Math.round((until-Date.now())/1000));
out.textContent=" ("+Math.floor(s/60)+":"+String(s%60).padStart(2,"0")+")";if(s>0)setTimeout(tick,1000);};tick();void base;}}
})();
`;
