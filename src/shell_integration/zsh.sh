# tilework shell integration for zsh: marks each prompt, command line,
# output and exit status with OSC 133, so tilework knows where commands
# begin and end. In ~/.zshrc, after the prompt is set:
#   eval "$(tilework shell-integration zsh)"
if [[ -o interactive && -z ${__tilework_si-} ]]; then
    typeset -g __tilework_si=1 __tilework_ran=0
    __tilework_precmd() {
        local st=$?
        if (( __tilework_ran )); then
            print -rn -- $'\e]133;D;'"$st"$'\a'
            __tilework_ran=0
        fi
        # A prompt set anew (by a theme, each time) is marked again.
        if [[ $PS1 != *'133;A'* ]]; then
            PS1=$'%{\e]133;A\a%}'"$PS1"$'%{\e]133;B\a%}'
        fi
        return $st
    }
    __tilework_preexec() {
        __tilework_ran=1
        print -rn -- $'\e]133;C\a'
    }
    # First, so that the status is the command's.
    typeset -ga precmd_functions preexec_functions
    precmd_functions=(__tilework_precmd ${precmd_functions:#__tilework_precmd})
    preexec_functions+=(__tilework_preexec)
fi
